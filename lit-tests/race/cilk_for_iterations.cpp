// Verify that --weft-race reports a race between iterations of a cilk_for
// that write the same array element (i % 4), and none on the elements each
// iteration owns.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// CHECK: weft-race:
#include <cilk/cilk.h>
#include <cstdio>

int owned[1000];
int shared[4];

int main() {
  cilk_for (int i = 0; i < 1000; ++i) {
    owned[i] = i;
    shared[i % 4] = i; // CHECK-DAG: write{{.*}}cilk_for_iterations.cpp:[[@LINE]]:
  }
  long sum = 0;
  for (int i = 0; i < 1000; ++i)
    sum += owned[i];
  std::printf("%ld %d\n", sum, shared[0] >= 0);
  return 0;
}
