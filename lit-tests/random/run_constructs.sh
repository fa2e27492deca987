#!/usr/bin/env bash
# run_constructs.sh WEFTCC WEFTCXX SERIALCC SERIALCXX RUNCHECK WORKDIR FIRST LAST [WEFT_FLAG...]
#
# Randomized differential test over Weft's constructs (reducers, cilk_for,
# cilk_scope, spawned statements, vectors and over-aligned types, templates,
# lambdas, C). For every seed in FIRST..LAST, gen_constructs.py (next to
# this script) writes a random race-free program WORKDIR/seedN.c or .cpp; it
# is compiled serially with SERIALCC or SERIALCXX -O1 and in parallel with
# WEFTCC or WEFTCXX WEFT_FLAG... (default -O2), and RUNCHECK compares the
# outputs at 1, 2 and 4 workers with and without WEFT_STRESS=1. Every seed
# runs even after a failure; each failure prints the seed, the generated
# file and the commands that reproduce it, and the script exits 1 if any
# seed failed. Files of passing seeds are deleted.
#
# The tool arguments are command strings (split on spaces), as lit's
# %weftcc, %weftcxx, %clang, %clangxx and %run-check expand. By hand, from
# the source tree with the build in build/ (scripts/random_campaign.sh runs
# thousands this way):
#
#   bash lit-tests/random/run_constructs.sh build/bin/weft-clang \
#     build/bin/weft-clang++ "clang-19 -Iinclude" "clang++-19 -Iinclude" \
#     "bash lit-tests/run-check.sh" /tmp/weft-constructs 1000 1499 -O2
#
# One seed by hand: python3 lit-tests/random/gen_constructs.py --seed N;
# GEN_ARGS="--lang c --without reducer" (say) passes options to the generator.
set -u
if [ $# -lt 8 ]; then
  sed -n '2,4p' "$0" >&2
  exit 2
fi
weftcc=$1 weftcxx=$2 serialcc=$3 serialcxx=$4 runcheck=$5 workdir=$6 first=$7 last=$8
shift 8
weft_flags=("$@")
[ ${#weft_flags[@]} -eq 0 ] && weft_flags=(-O2)
gen="$(cd "$(dirname "$0")" && pwd)/gen_constructs.py"
mkdir -p "$workdir" || exit 2

# shellcheck source=seed_failures.sh
source "$(dirname "$0")/seed_failures.sh"

for ((seed = first; seed <= last; ++seed)); do
  # shellcheck disable=SC2086
  if ! program=$(python3 "$gen" --seed "$seed" ${GEN_ARGS:-}); then
    fail "$seed" "-" "generator failed"
    continue
  fi
  if [[ $program == *"<cstdio>"* ]]; then
    src=$workdir/seed$seed.cpp weft=$weftcxx serial="$serialcxx -std=c++17"
    std=-std=c++17
  else
    src=$workdir/seed$seed.c weft=$weftcc serial="$serialcc -std=gnu11"
    std=-std=gnu11
  fi
  printf '%s\n' "$program" > "$src"
  serial_bin=$workdir/seed$seed.serial weft_bin=$workdir/seed$seed.weft
  # shellcheck disable=SC2086  # the tool strings are meant to be split
  if ! out=$($serial -O1 -w "$src" -o "$serial_bin" 2>&1); then
    fail "$seed" "$src" "serial compile failed (a generator bug)" \
      "$serial -O1 $src" "$(echo "$out" | head -20)"
    continue
  fi
  # shellcheck disable=SC2086
  if ! out=$($weft $std -w "${weft_flags[@]}" "$src" -o "$weft_bin" 2>&1); then
    fail "$seed" "$src" "Weft compile failed" \
      "$weft $std ${weft_flags[*]} $src -o $weft_bin" "$(echo "$out" | head -20)"
    continue
  fi
  # shellcheck disable=SC2086
  if ! out=$($runcheck "$weft_bin" "$serial_bin" 2>&1); then
    fail "$seed" "$src" "output differs from the serial elision" \
      "$weft $std ${weft_flags[*]} $src -o $weft_bin" \
      "$serial -O1 $src -o $serial_bin" "$runcheck $weft_bin $serial_bin" \
      "$(echo "$out" | head -20)"
    continue
  fi
  rm -f "$src" "$serial_bin" "$weft_bin"
done

count=$((last - first + 1))
if [ ${#failed[@]} -ne 0 ]; then
  echo "run_constructs: ${#failed[@]} of $count seeds failed (${weft_flags[*]}): ${failed[*]}"
  exit 1
fi
echo "run_constructs: $count seeds ($first..$last, ${weft_flags[*]}) match the serial elision"
