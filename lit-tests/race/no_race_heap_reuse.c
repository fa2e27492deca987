/* Verify that --weft-race reports nothing when logically parallel children
 * each allocate, write and free a block (malloc/free, calloc, realloc):
 * a block one frees is usually the next one's, at the same address.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 0 0 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 0 0 %t2 | FileCheck %s
 * CHECK: races found: 0
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long use_block(int seed) {
  int *p = malloc(64 * sizeof(int));
  for (int i = 0; i < 64; ++i)
    p[i] = seed + i;
  p = realloc(p, 128 * sizeof(int));
  for (int i = 64; i < 128; ++i)
    p[i] = seed;
  long s = 0;
  for (int i = 0; i < 128; ++i)
    s += p[i];
  free(p);
  int *q = calloc(32, sizeof(int));
  q[5] = seed;
  s += q[5];
  free(q);
  return s;
}

int main(void) {
  long r[8];
  for (int i = 0; i < 8; ++i)
    r[i] = cilk_spawn use_block(i);
  cilk_sync;
  long total = 0;
  for (int i = 0; i < 8; ++i)
    total += r[i];
  printf("%ld\n", total);
  return 0;
}
