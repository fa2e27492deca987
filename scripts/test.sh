#!/usr/bin/env bash
# The test command: installs what is missing, then for each LLVM version
# Weft is tested on (19 in build/, 22 in build-llvm22/) builds everything
# (including the ThreadSanitizer unit tests) and runs every test through
# CTest: GoogleTest unit and stress tests (normal and TSan) and the lit
# suite. Arguments go to both ctest runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
for version in 19 22; do
  dir=build
  [ "$version" = 19 ] || dir=build-llvm$version
  echo "== LLVM $version ($dir)"
  WEFT_LLVM_VERSION=$version bash scripts/build.sh
  cmake --build "$dir" --target weft_unit_tests_tsan
  ctest --test-dir "$dir" --output-on-failure "$@"
done
