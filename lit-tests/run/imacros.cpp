// Verify that keywords defined by a file read with -imacros spawn: the
// file includes <cilk/cilk.h>, whose definitions must see __weft__.
//
// RUN: %clangxx -O2 -imacros %S/Inputs/forced_macros.h %s -o %t.serial
// RUN: %weftcxx -O2 -imacros %S/Inputs/forced_macros.h %s -o %t
// RUN: %run-check %t %t.serial | FileCheck %s
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t 2>&1 | FileCheck --check-prefix=SPAWNS %s
// CHECK: run-check: {{.*}} matches the serial elision
// SPAWNS: weft-stats: workers=1 threads=1 spawns={{[1-9][0-9]*}}

#include <cstdio>

static long fib(long N) {
  if (N < 2)
    return N;
  long X = IMACROS_SPAWN fib(N - 1);
  long Y = fib(N - 2);
  IMACROS_SYNC;
  return X + Y;
}

int main() {
  long Sum = 0;
  IMACROS_FOR (long I = 0; I < 1000; ++I)
    __atomic_fetch_add(&Sum, I, __ATOMIC_RELAXED);
  std::printf("%ld %ld\n", Sum, fib(18));
  return 0;
}
