#!/usr/bin/env bash
# The main job: installs what is missing, builds Weft, compiles
# examples/fib.cpp with weft-clang++ and as its serial elision, and runs it
# serially and on 1 and 2 workers, printing results, times and the speedup.
#   scripts/demo.sh [N]    (default N=38)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-38}
bash scripts/setup.sh
bash scripts/build.sh
mkdir -p build/demo
build/bin/weft-clang++ -O2 examples/fib.cpp -o build/demo/fib
/usr/lib/llvm-19/bin/clang++ -O2 -Iinclude examples/fib.cpp -o build/demo/fib-serial

seconds() { # runs "$@", prints its output and stores the wall time in $t
  local start end
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc -l 2>/dev/null || python3 -c "print($end - $start)")
}
echo "== serial elision (clang-19 -O2, no plugin)"
seconds build/demo/fib-serial "$n"; ts=$t
echo "== Weft, 1 worker"
seconds env WEFT_NWORKERS=1 build/demo/fib "$n"; t1=$t
echo "== Weft, 2 workers"
seconds env WEFT_NWORKERS=2 WEFT_STATS=1 build/demo/fib "$n"; t2=$t
python3 - "$ts" "$t1" "$t2" <<'PY'
import sys
ts, t1, t2 = map(float, sys.argv[1:])
print(f"serial {ts:.3f} s | P=1 {t1:.3f} s (T1/Ts = {t1/ts:.2f}) | "
      f"P=2 {t2:.3f} s | speedup T1/T2 = {t1/t2:.2f}")
PY
