#!/usr/bin/env bash
# run-check.sh WEFT_BINARY SERIAL_BINARY [ARGS...]
# Runs the serial elision once, then the Weft binary at 1, 2 and 4 workers,
# each with and without forced steals (WEFT_STRESS=1), and fails on the
# first output that differs from the serial one, or on a non-zero exit.
# WEFT_RUN_PREFIX (an emulator and its options, in a cross build's suite)
# goes before each program.
set -u
weft=$1 serial=$2
shift 2
expected=$(${WEFT_RUN_PREFIX:-} "$serial" "$@") || { echo "serial elision failed: $serial $*"; exit 1; }
for workers in 1 2 4; do
  for stress in 0 1; do
    actual=$(WEFT_NWORKERS=$workers WEFT_STRESS=$stress timeout 120 ${WEFT_RUN_PREFIX:-} "$weft" "$@")
    status=$?
    if [ $status -ne 0 ] || [ "$actual" != "$expected" ]; then
      echo "MISMATCH at WEFT_NWORKERS=$workers WEFT_STRESS=$stress (exit $status)"
      diff <(echo "$expected") <(echo "$actual") | head -20
      exit 1
    fi
  done
done
echo "run-check: $(basename "$weft") matches the serial elision at P=1,2,4 with and without stress"
