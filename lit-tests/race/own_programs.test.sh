#!/usr/bin/env bash
# own_programs.test.sh OUT CILK5 BENCH EXAMPLES WEFTCXX WEFTCC EXPECT...
# Builds each program with --weft-race and runs it through expect-races.sh
# (0 races, status 0); prints a line per program and fails on the first
# that does not pass.
set -u
out=$1 cilk5=$2 bench=$3 examples=$4 weftcxx=$5 weftcc=$6
shift 6
expect=("$@")
failed=0
check() { # name compiler source args...
  local name=$1 compiler=$2 source=$3
  shift 3
  if ! $compiler --weft-race -O2 -g "$source" -o "$out/$name" 2>"$out/$name.build"; then
    echo "FAIL build $name"; cat "$out/$name.build"; failed=1; return
  fi
  if ! "${expect[@]}" 0 0 "$out/$name" "$@" >"$out/$name.err" 2>&1; then
    echo "FAIL run $name $*"; tail -n 40 "$out/$name.err"; failed=1; return
  fi
  echo "race-free: $name $*"
}
check fib_c "$weftcc" "$cilk5/fib.c" 18
check nqueens_c "$weftcc" "$cilk5/nqueens.c" 7
check qsort_c "$weftcc" "$cilk5/qsort.c" 5000
check cholesky "$weftcxx" "$cilk5/cholesky.cpp" 40
check cilksort "$weftcxx" "$cilk5/cilksort.cpp" 5000
check fft "$weftcxx" "$cilk5/fft.cpp" 512
check fib "$weftcxx" "$cilk5/fib.cpp" 18
check heat "$weftcxx" "$cilk5/heat.cpp" 40 30 10
check knapsack "$weftcxx" "$cilk5/knapsack.cpp" 14
check lu "$weftcxx" "$cilk5/lu.cpp" 40
check matmul "$weftcxx" "$cilk5/matmul.cpp" 32
check nqueens "$weftcxx" "$cilk5/nqueens.cpp" 7
check qsort "$weftcxx" "$cilk5/qsort.cpp" 5000
check rectmul "$weftcxx" "$cilk5/rectmul.cpp" 31 45 60
check reducer_fib "$weftcxx" "$cilk5/reducer_fib.cpp" 16
check strassen "$weftcxx" "$cilk5/strassen.cpp" 64
check bench_fib "$weftcxx" "$bench/fib/fib_cilk.cpp" 18
check bench_nqueens "$weftcxx" "$bench/nqueens/nqueens_cilk.cpp" 7
check bench_cilksort "$weftcxx" "$bench/cilksort/cilksort_cilk.cpp" 20000
check bench_matmul "$weftcxx" "$bench/matmul/matmul_cilk.cpp" 64
check bench_cilkfor "$weftcxx" "$bench/cilkfor/cilkfor_cilk.cpp" 10000
check bench_uts "$weftcxx" "$bench/uts/uts_cilk.cpp" 6
check example_fib "$weftcxx" "$examples/fib.cpp" 18
check example_nqueens "$weftcxx" "$examples/nqueens.cpp" 7
exit $failed
