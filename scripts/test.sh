#!/usr/bin/env bash
# The test command: installs what is missing, builds everything (including
# the ThreadSanitizer unit tests), and runs every test through CTest:
# GoogleTest unit and stress tests (normal and TSan) and the lit suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cmake --build build --target weft_unit_tests_tsan
ctest --test-dir build --output-on-failure "$@"
