#!/usr/bin/env bash
# The test command: installs what is missing, then for each LLVM version
# Weft is tested on (19 in build/, 22 in build-llvm22/) builds everything
# (including the ThreadSanitizer unit tests) and runs every test through
# CTest: GoogleTest unit and stress tests (normal and TSan) and the lit
# suite; then the Arm leg: the same version's cross build for aarch64
# (build-aarch64/, build-llvm22-aarch64/), whose unit, stress and race
# runtime tests and lit programs run under qemu-user (docs/install.md).
# Arguments go to every ctest run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# Stops in one line if a sanitizer runtime the suites link is missing (a
# half-installed machine), instead of dozens of link failures later.
check_sanitizer_runtimes() { # check_sanitizer_runtimes VERSION
  local clang=/usr/lib/llvm-$1/bin/clang++ tmp sanitizer
  tmp=$(mktemp -d)
  echo 'int main() { return 0; }' > "$tmp/t.cpp"
  for sanitizer in address undefined thread leak; do
    if ! "$clang" -fsanitize=$sanitizer "$tmp/t.cpp" -o "$tmp/t" 2>/dev/null; then
      rm -rf "$tmp"
      echo "test: clang-$1 cannot link -fsanitize=$sanitizer: install libclang-rt-$1-dev (scripts/setup.sh installs it)" >&2
      exit 1
    fi
  done
  rm -rf "$tmp"
}

for version in 19 22; do
  check_sanitizer_runtimes "$version"
  dir=build
  [ "$version" = 19 ] || dir=build-llvm$version
  echo "== LLVM $version ($dir)"
  WEFT_LLVM_VERSION=$version bash scripts/build.sh
  cmake --build "$dir" --target weft_unit_tests_tsan
  ctest --test-dir "$dir" --output-on-failure "$@"
  echo "== LLVM $version, aarch64 under qemu-user ($dir-aarch64)"
  WEFT_TARGET=aarch64 WEFT_LLVM_VERSION=$version bash scripts/build.sh
  ctest --test-dir "$dir-aarch64" --output-on-failure "$@"
done
