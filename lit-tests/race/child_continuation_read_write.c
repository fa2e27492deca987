/* Verify that --weft-race reports a read/write race in C between a child
 * that reads a stack variable of its parent through a pointer and the
 * continuation that writes it.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * CHECK: weft-race:
 */
#include <cilk/cilk.h>
#include <stdio.h>

__attribute__((noinline)) int read_it(const int *p) {
  return *p * 2; // CHECK-DAG: read{{.*}}child_continuation_read_write.c:[[@LINE]]:
}

__attribute__((noinline)) void run(int *out) {
  int x = 1;
  int r = cilk_spawn read_it(&x);
  x = 5; // CHECK-DAG: write{{.*}}child_continuation_read_write.c:[[@LINE]]:
  cilk_sync;
  *out = r + x;
}

int main(void) {
  int out;
  run(&out);
  printf("%d\n", out);
  return 0;
}
