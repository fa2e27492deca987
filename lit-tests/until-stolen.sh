#!/usr/bin/env bash
# until-stolen.sh COMMAND [ARGS...]
# Runs a Weft program built with WEFT_STATS=1 in its environment until its
# statistics line counts at least one steal, at most 10 times, then replays
# the last run's standard output and standard error and exits with its
# status. A test that checks that steals happen at all (WEFT_STRESS=1 at
# P=2) needs the thief to get a core while the program runs: on a loaded
# machine that can miss in one short run, never in ten. WEFT_RUN_PREFIX (an
# emulator and its options, in a cross build's suite) goes before COMMAND.
set -u
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for try in 1 2 3 4 5 6 7 8 9 10; do
  ${WEFT_RUN_PREFIX:-} "$@" >"$out" 2>"$err"
  status=$?
  grep -q 'weft-stats: .* steals=[1-9]' "$err" && break
done
cat "$out"
cat "$err" >&2
exit $status
