#!/usr/bin/env bash
# stack-bound.sh STATS_FILE [MAX_STACKS]
# Reads the weft-stats line in STATS_FILE (WEFT_STATS=1's stderr) and fails
# unless the fiber stacks stayed within the bound: peak_stacks (in use) at
# most max_stacks, and peak_mapped at most max_stacks plus the 4 idle
# stacks each thread may keep (runtime/stack_budget.h). With MAX_STACKS,
# max_stacks must also equal it.
set -u
stats=$1 want=${2:-}
line=$(grep '^weft-stats:' "$stats") || { echo "no weft-stats line in $stats"; exit 1; }
value() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
max=$(value max_stacks) peak=$(value peak_stacks) mapped=$(value peak_mapped)
threads=$(value threads)
if [ -n "$want" ] && [ "$max" != "$want" ]; then
  echo "max_stacks=$max, expected $want"; exit 1
fi
if [ "$peak" -gt "$max" ] || [ "$mapped" -gt $((max + 4 * threads)) ]; then
  echo "stacks out of bound: peak_stacks=$peak peak_mapped=$mapped max_stacks=$max threads=$threads"
  exit 1
fi
echo "stack-bound: peak_stacks=$peak peak_mapped=$mapped within max_stacks=$max"
