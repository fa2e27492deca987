/* Verify that --weft-race counts memcpy and memset as accesses of their
 * whole ranges: the continuation's write into the middle of the range a
 * child copies into races with the copy, and so does a memset in one
 * child with a store of another; the reads of the copy's source by both
 * strands are no race.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 2 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 2 66 %t2 | FileCheck %s
 * CHECK: weft-race:
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <string.h>

char src[256], dst[256], zeroed[100];
volatile size_t copy_size = 200; /* not a constant: a call of memcpy */

__attribute__((noinline)) void copy(void) {
  memcpy(dst, src, copy_size); // CHECK-DAG: write{{.*}}memcpy_ranges.c:[[@LINE]]:
}

__attribute__((noinline)) void clear(void) {
  memset(zeroed, 0, sizeof zeroed); // CHECK-DAG: write{{.*}}memcpy_ranges.c:[[@LINE]]:
}

__attribute__((noinline)) void poke(char *p) {
  *p = 'x'; // CHECK-DAG: write{{.*}}memcpy_ranges.c:[[@LINE]]:
}

int main(void) {
  for (int i = 0; i < 256; ++i)
    src[i] = (char)i;
  cilk_spawn copy();
  char first = src[0];
  dst[150] = first; // CHECK-DAG: write{{.*}}memcpy_ranges.c:[[@LINE]]:
  cilk_sync;
  cilk_spawn clear();
  poke(&zeroed[99]);
  cilk_sync;
  printf("%d %d\n", dst[150], zeroed[99]);
  return 0;
}
