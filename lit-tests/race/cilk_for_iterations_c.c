/* Verify that --weft-race reports, in C, a race between cilk_for
 * iterations that write the same element of a heap array, and none in a
 * second loop whose iterations each write their own element and read a
 * shared one.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * CHECK: weft-race:
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 500;
  long *a = calloc(n, sizeof(long));
  long *buckets = calloc(8, sizeof(long));
  long scale = 3;
  cilk_for (int i = 0; i < n; ++i)
    a[i] = i * scale; /* reads scale: read/read is no race */
  cilk_for (int i = 0; i < n; ++i)
    buckets[i % 8] = a[i]; // CHECK-DAG: write{{.*}}cilk_for_iterations_c.c:[[@LINE]]:
  long sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i];
  printf("%ld\n", sum);
  free(a);
  free(buckets);
  return 0;
}
