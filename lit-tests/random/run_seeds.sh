#!/usr/bin/env bash
# run_seeds.sh WEFTCXX SERIALCXX RUNCHECK WORKDIR FIRST LAST [WEFT_FLAG...]
#
# Randomized differential test of Weft against the serial elision. For every
# seed in FIRST..LAST, gen_forkjoin.py (next to this script) writes a random
# race-free fork-join program WORKDIR/seedN.cpp; it is compiled serially with
# SERIALCXX -O2 and in parallel with WEFTCXX WEFT_FLAG... (default -O2), and
# RUNCHECK compares the outputs at 1, 2 and 4 workers with and without
# WEFT_STRESS=1. Every seed runs even after a failure; each failure prints the
# seed, the generated file and the command that reproduces it, and the script
# exits 1 if any seed failed. Binaries of passing seeds are deleted.
#
# The tool arguments are command strings (split on spaces), as lit's
# %weftcxx, %clangxx and %run-check expand. By hand, from the source tree
# with the build in build/, e.g. seeds 1000-1499 at -O2, then under ASan:
#
#   bash lit-tests/random/run_seeds.sh build/bin/weft-clang++ \
#     "clang++-19 -Iinclude" "bash lit-tests/run-check.sh" /tmp/weft-seeds 1000 1499
#   bash lit-tests/random/run_seeds.sh build/bin/weft-clang++ \
#     "clang++-19 -Iinclude" "bash lit-tests/run-check.sh" /tmp/weft-seeds-asan 1 20 \
#     -O1 -fsanitize=address
#
# One seed by hand: python3 lit-tests/random/gen_forkjoin.py --seed N > p.cpp
# GEN_ARGS="--without exceptions,lambda" (say) passes options to the generator.
set -u
if [ $# -lt 6 ]; then
  sed -n '2,4p' "$0" >&2
  exit 2
fi
weftcxx=$1 serialcxx=$2 runcheck=$3 workdir=$4 first=$5 last=$6
shift 6
weft_flags=("$@")
[ ${#weft_flags[@]} -eq 0 ] && weft_flags=(-O2)
gen="$(cd "$(dirname "$0")" && pwd)/gen_forkjoin.py"
mkdir -p "$workdir" || exit 2

# shellcheck source=seed_failures.sh
source "$(dirname "$0")/seed_failures.sh"

for ((seed = first; seed <= last; ++seed)); do
  src=$workdir/seed$seed.cpp serial=$workdir/seed$seed.serial weft=$workdir/seed$seed.weft
  # shellcheck disable=SC2086
  if ! python3 "$gen" --seed "$seed" ${GEN_ARGS:-} > "$src"; then
    fail "$seed" "$src" "generator failed"
    continue
  fi
  # shellcheck disable=SC2086  # the tool strings are meant to be split
  if ! out=$($serialcxx -std=c++17 -O2 -w "$src" -o "$serial" 2>&1); then
    fail "$seed" "$src" "serial compile failed (a generator bug)" "$serialcxx -std=c++17 -O2 $src" \
      "$(echo "$out" | head -20)"
    continue
  fi
  if ! out=$($weftcxx -std=c++17 -w "${weft_flags[@]}" "$src" -o "$weft" 2>&1); then
    fail "$seed" "$src" "Weft compile failed" "$weftcxx -std=c++17 ${weft_flags[*]} $src -o $weft" \
      "$(echo "$out" | head -20)"
    continue
  fi
  if ! out=$($runcheck "$weft" "$serial" 2>&1); then
    fail "$seed" "$src" "output differs from the serial elision" \
      "$weftcxx -std=c++17 ${weft_flags[*]} $src -o $weft" \
      "$serialcxx -std=c++17 -O2 $src -o $serial" "$runcheck $weft $serial" \
      "$(echo "$out" | head -20)"
    continue
  fi
  rm -f "$serial" "$weft"
done

count=$((last - first + 1))
if [ ${#failed[@]} -ne 0 ]; then
  echo "run_seeds: ${#failed[@]} of $count seeds failed (${weft_flags[*]}): ${failed[*]}"
  exit 1
fi
echo "run_seeds: $count seeds ($first..$last, ${weft_flags[*]}) match the serial elision"
