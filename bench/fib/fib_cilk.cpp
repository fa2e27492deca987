// fib with no coarsening: every call but the leaves spawns. Compiled with
// weft-clang++ this is the Weft variant; with plain clang++ it is the serial
// elision that every ratio is measured against.
#include "../common/bench.h"

#include <cilk/cilk.h>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, 36);
  bench::run(n, fib);
}
