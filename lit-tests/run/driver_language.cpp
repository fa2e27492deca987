// Verify that the drivers accept a source whose language is given with -x
// (a file without a C++ suffix): the runtime archive they add when linking
// is read as an archive, not as C++ source, so the link works and the
// program runs in parallel.
// RUN: cp %s %t.source
// RUN: %weftcxx -O2 -x c++ %t.source -o %t
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %until-stolen %t 2>&1 | FileCheck %s
// CHECK: fib(22) = 17711
// CHECK: weft-stats: workers=2 {{.*}}steals={{[1-9]}}
#include <cilk/cilk.h>
#include <cstdio>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main() { std::printf("fib(22) = %ld\n", fib(22)); }
