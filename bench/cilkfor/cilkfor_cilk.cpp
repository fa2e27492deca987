// A flat cilk_for over 2^22 iterations, default grain; a second argument
// sets the grain instead (bench/run.py --grain-sweep; 0 is the default).
// Compiled with weft-clang++ this is the Weft variant; with plain clang++
// it is the serial elision that every ratio is measured against.
#include "../common/bench.h"
#include "cilkfor.h"

#include <cilk/cilk.h>

static long grain = 0;

long long kernel(long n) {
  std::uint64_t *out = cilkfor::slots().data();
#pragma cilk grainsize grain
  cilk_for (long i = 0; i < n; ++i)
    out[i] = cilkfor::work(i);
  return cilkfor::checksum(n);
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, 1l << 22);
  grain = bench::arg(argc, argv, 2, 0);
  cilkfor::slots().assign(n, 0);
  bench::run(n, kernel);
}
