// Verify that --weft-race reports a race between two children spawned in
// one cilk_scope, and none between the scope's children and the code
// after the scope, which the scope's end orders after them.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// CHECK: weft-race:
#include <cilk/cilk.h>
#include <cstdio>

__attribute__((noinline)) void store(long *p, long v) {
  *p = v; // CHECK-DAG: write{{.*}}scope_children.cpp:[[@LINE]]:
}

int main() {
  long total = 0;
  cilk_scope {
    cilk_spawn store(&total, 1);
    cilk_spawn store(&total, 2);
  }
  total += 10; // after the scope: serial
  std::printf("%ld\n", total);
  return 0;
}
