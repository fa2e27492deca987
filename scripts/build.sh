#!/usr/bin/env bash
# Configures and builds Weft (Ninja, Release) for one LLVM version:
#   scripts/build.sh [ninja args]          LLVM 19 into build/
#   WEFT_LLVM_VERSION=22 scripts/build.sh  LLVM 22 into build-llvm22/
# and, with WEFT_TARGET=aarch64, for 64-bit Arm Linux too: the host build
# first (whose plugin the Arm build uses), then the Arm build in
# build-aarch64/ (build-llvm22-aarch64/ for 22), cross-compiled with the
# same clang and Debian's cross packages (docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${WEFT_LLVM_VERSION:-19}
dir=build
[ "$version" = 19 ] || dir=build-llvm$version
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DWEFT_LLVM_VERSION="$version" >/dev/null
cmake --build "$dir" "$@"

case "${WEFT_TARGET:-}" in
  "") exit 0 ;;
  aarch64) ;;
  *) echo "build: WEFT_TARGET=$WEFT_TARGET: the one cross target is aarch64" >&2
     exit 1 ;;
esac
cross_packages=(crossbuild-essential-arm64 libboost-context-dev:arm64
                libgtest-dev:arm64 qemu-user)
missing=()
for p in "${cross_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "build: the Arm build needs ${missing[*]} (scripts/setup.sh installs them)" >&2
  exit 1
fi
cross=$dir-aarch64
cmake -S . -B "$cross" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
  -DWEFT_LLVM_VERSION="$version" -DWEFT_HOST_BUILD="$PWD/$dir" >/dev/null
cmake --build "$cross" "$@"
