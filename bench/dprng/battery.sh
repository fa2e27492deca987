#!/usr/bin/env bash
# battery.sh [dieharder arguments...]
# Puts the deterministic random numbers (__cilkrts_get_dprand(), built with
# pedigrees) through dieharder's battery: the stream of dprng_stream.cpp,
# at two workers, read raw from standard input (-g 200). With no arguments
# it runs every test (-a), which takes about an hour on two cores; any
# other arguments go to dieharder in place of -a (e.g. -d 0 for one test).
# Prints dieharder's table to battery.out in the build tree and a count of
# PASSED, WEAK and FAILED assessments. Needs dieharder (Debian's package of
# that name; it is not part of the build's dependencies).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${WEFT_BUILD:-$root/build}
command -v dieharder > /dev/null ||
  { echo "battery.sh: needs dieharder (apt-get install dieharder)" >&2; exit 2; }
out=$build/bench/dprng
mkdir -p "$out"
"$build/bin/weft-clang++" --weft-pedigrees -O2 "$here/dprng_stream.cpp" -o "$out/dprng_stream"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(-a)
# The stream ends with a failed write once dieharder has read enough.
WEFT_NWORKERS=2 "$out/dprng_stream" | dieharder -g 200 "${args[@]}" | tee "$out/battery.out"
for verdict in PASSED WEAK FAILED; do
  printf '%s %s\n' "$verdict" "$(grep -c "$verdict" "$out/battery.out" || true)"
done
