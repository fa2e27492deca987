#!/usr/bin/env bash
# same-at-every-p.sh BINARY [ARGS...]
# Runs BINARY at 1, 2, 4 and 8 workers, each with and without forced steals
# (WEFT_STRESS=1), fails on a non-zero exit or on an output that differs
# from the first run's, and prints that output once: for programs whose
# answer is not the serial elision's but must not depend on the schedule
# (pedigrees, deterministic random numbers). WEFT_RUN_PREFIX (an emulator
# and its options, in a cross build's suite) goes before the program.
set -u
binary=$1
shift
expected=
for workers in 1 2 4 8; do
  for stress in 0 1; do
    actual=$(WEFT_NWORKERS=$workers WEFT_STRESS=$stress timeout 120 ${WEFT_RUN_PREFIX:-} "$binary" "$@")
    status=$?
    if [ $status -ne 0 ]; then
      echo "FAILED at WEFT_NWORKERS=$workers WEFT_STRESS=$stress (exit $status)"
      echo "$actual" | head -20
      exit 1
    fi
    if [ $workers -eq 1 ] && [ $stress -eq 0 ]; then
      expected=$actual
    elif [ "$actual" != "$expected" ]; then
      echo "DIFFERENT at WEFT_NWORKERS=$workers WEFT_STRESS=$stress"
      diff <(echo "$expected") <(echo "$actual") | head -20
      exit 1
    fi
  done
done
echo "$expected"
