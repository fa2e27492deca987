/* Verify that --weft-race reports a race on heap memory: a child writes
 * an element of a malloc'd buffer that the continuation reads; the other
 * elements, written by the child only, are no race.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * CHECK: weft-race:
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void fill(double *buf, int n) {
  for (int i = 0; i < n; ++i)
    buf[i] = i; // CHECK-DAG: write{{.*}}heap_memory.c:[[@LINE]]:
}

int main(void) {
  double *buf = malloc(16 * sizeof(double));
  cilk_spawn fill(buf, 16);
  double seen = buf[3]; // CHECK-DAG: read{{.*}}heap_memory.c:[[@LINE]]:
  cilk_sync;
  printf("%d\n", seen >= 0);
  free(buf);
  return 0;
}
