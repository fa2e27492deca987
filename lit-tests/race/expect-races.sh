#!/usr/bin/env bash
# expect-races.sh N STATUS COMMAND [ARGS...]
# Runs a program built with --weft-race and prints its standard output,
# then its standard error (for FileCheck). Fails unless the last line of that standard error is exactly
# `weft-race: races found: N` and the program exited with STATUS.
set -u
races=$1 want=$2
shift 2
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
status=$?
cat "$out" "$err"
last=$(tail -n 1 "$err")
if [ "$last" != "weft-race: races found: $races" ]; then
  echo "expect-races: last line is '$last', not 'weft-race: races found: $races'" >&2
  exit 1
fi
if [ "$status" -ne "$want" ]; then
  echo "expect-races: exit status $status, not $want" >&2
  exit 1
fi
