#!/usr/bin/env bash
# Configures and builds Weft (Ninja, Release) for one LLVM version:
#   scripts/build.sh [ninja args]          LLVM 19 into build/
#   WEFT_LLVM_VERSION=22 scripts/build.sh  LLVM 22 into build-llvm22/
set -euo pipefail
cd "$(dirname "$0")/.."
version=${WEFT_LLVM_VERSION:-19}
dir=build
[ "$version" = 19 ] || dir=build-llvm$version
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DWEFT_LLVM_VERSION="$version" >/dev/null
cmake --build "$dir" "$@"
