#!/usr/bin/env bash
# Configures and builds Weft into build/ (Ninja, Release).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build "$@"
