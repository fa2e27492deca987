// fib: the classic fork-join benchmark, written for OpenCilk and unchanged
// here. Each call spawns one recursive call and runs the other itself; no
// coarsening, so almost all time goes to spawns.
//
//   weft-clang++ -O2 fib.cpp -o fib && WEFT_NWORKERS=2 ./fib 38
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 30;
  std::printf("fib(%ld) = %ld\n", n, fib(n));
  return 0;
}
