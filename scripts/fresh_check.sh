#!/usr/bin/env bash
# Proves the README's two commands on a fresh Debian 12 machine: builds a
# new Debian 12 root (mmdebstrap, minbase: apt and the required packages,
# nothing else), puts a clean clone of this repository's HEAD in it, and
# runs scripts/demo.sh, then scripts/test.sh, inside it as root. Nothing
# of the host's reaches the root but its apt sources (so the root installs
# from the same package registry) and its kernel.
#
#   scripts/fresh_check.sh [--keep] [--dir DIR] [--ref REF] [-- ctest args]
#
#   --dir DIR  where the root is made (default: a new directory in /var/tmp)
#   --keep     leave the root in place afterwards (to look at a failure)
#   --ref REF  the commit to check (default HEAD); uncommitted changes are
#              never part of the check
#
# Prints each command's wall time and exits non-zero if either fails.
# Needs root (chroot and mounts) and about 12 GB of disk; takes about
# half an hour on 2 cores. A green CI run on a machine that has lived
# through many sessions says nothing of a fresh one: run this before
# resolving anything that changes a dependency, the build or the setup.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

dir="" keep=0 ref=HEAD
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --ref) ref=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "fresh_check: unknown argument '$1' (see the top of $0)" >&2; exit 2 ;;
  esac
done

[ "$(id -u)" -eq 0 ] || { echo "fresh_check: run as root (it uses chroot and mount)" >&2; exit 2; }
if ! command -v mmdebstrap >/dev/null; then
  echo "fresh_check: installing mmdebstrap on the host"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
fi

[ -n "$dir" ] || dir=$(mktemp -d /var/tmp/weft-fresh.XXXXXX)
mkdir -p "$dir"
root=$(cd "$dir" && pwd)/root
mounted=()
cleanup() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    m=${mounted[i]}
    umount -l "$m" 2>/dev/null || true
  done
  if [ "$keep" = 1 ]; then
    echo "fresh_check: the root is kept at $root"
  else
    rm -rf --one-file-system "$dir"
  fi
}
trap cleanup EXIT

# The host's apt sources, so the new root reaches the same registry.
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && grep -qE '^[[:space:]]*(deb|Types:)' "$f" && sources+=("$f")
done

echo "== fresh_check: Debian 12 root in $root"
start=$(date +%s)
mmdebstrap --quiet --variant=minbase bookworm "$root" "${sources[@]}"
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "   made in $(( $(date +%s) - start )) s"

git clone --quiet --no-local "$repo" "$root/root/weft"
git -C "$root/root/weft" checkout --quiet --detach "$(git -C "$repo" rev-parse "$ref")"
echo "   checking $(git -C "$root/root/weft" log -1 --format='%h %s')"

mount_in() { # mount_in TYPE SOURCE PATH: a mount inside the root, undone at exit
  mkdir -p "$root/$3"
  if [ "$1" = bind ]; then mount --rbind "$2" "$root/$3"; else mount -t "$1" "$2" "$root/$3"; fi
  mounted+=("$root/$3")
}
mount_in proc proc /proc
mount_in sysfs sysfs /sys
mount_in bind /dev /dev
mount_in tmpfs tmpfs /tmp

in_root() { # a login-like environment with nothing from the host's
  env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    chroot "$root" /bin/bash -c "cd /root/weft && $*"
}

status=0
times=()
for cmd in "scripts/demo.sh" "scripts/test.sh $*"; do
  echo "== fresh_check: $cmd"
  start=$(date +%s)
  if in_root "bash $cmd"; then result=passed; else result=FAILED; status=1; fi
  t=$(( $(date +%s) - start ))
  times+=("${cmd%% *}: $result in $((t / 60)) min $((t % 60)) s")
  [ "$result" = passed ] || break
done
echo "== fresh_check results"
printf '   %s\n' "${times[@]}"
exit $status
