#!/usr/bin/env bash
# Installs the Debian packages Weft needs, only those missing; quiet when
# everything is present. Safe to run any number of times.
set -euo pipefail

packages=(
  cmake ninja-build make g++ python3 pkg-config
  clang-19 llvm-19-dev libclang-19-dev llvm-19-tools libclang-rt-19-dev
  clang-22 llvm-22-dev libclang-22-dev llvm-22-tools libclang-rt-22-dev  # the second LLVM tested
  libboost-context-dev libgtest-dev
  libtbb-dev libomp-19-dev gnuplot-nox   # benchmark peers and plots
  libopenmpi-dev openmpi-bin             # examples/mpi and its tests
  # The Arm build and its tests under emulation (docs/install.md): the
  # cross C and C++ libraries, Arm's Boost.Context and GoogleTest from
  # Debian's arm64 architecture, and qemu-user to run the programs.
  crossbuild-essential-arm64 libboost-context-dev:arm64 libgtest-dev:arm64
  qemu-user
)

# Whether package $1 is installed. A name without :arch means the
# machine's own architecture (or none, for architecture-independent
# packages): with arm64 added, dpkg-query also lists another
# architecture's copy of the name, which must not count.
native=$(dpkg --print-architecture)
installed() {
  local want="$native all"
  case "$1" in *:*) want=${1##*:} ;; esac
  dpkg-query -W -f='${Status} ${Architecture}\n' "$1" 2>/dev/null |
    awk -v want=" $want " '$3 == "installed" && index(want, " " $4 " ") { found = 1 }
                           END { exit !found }'
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
# The :arm64 packages come from Debian's arm64 architecture, which dpkg
# must know before apt reads the package lists.
if printf '%s\n' "${missing[@]}" | grep -q ':arm64$' &&
    ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $sudo dpkg --add-architecture arm64
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
  --no-install-recommends "${missing[@]}" >/dev/null
