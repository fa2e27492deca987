/* Verify that --weft-race reports nothing on C11 atomics and __atomic
 * builtins updated by logically parallel strands.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 0 0 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 0 0 %t2 | FileCheck %s
 * CHECK: total=4950 hits=100
 * CHECK: races found: 0
 */
#include <cilk/cilk.h>
#include <stdatomic.h>
#include <stdio.h>

atomic_long total;
int hits;

int main(void) {
  cilk_for (int i = 0; i < 100; ++i) {
    atomic_fetch_add(&total, i);
    __atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
  }
  printf("total=%ld hits=%d\n", atomic_load(&total), __atomic_load_n(&hits, __ATOMIC_RELAXED));
  return 0;
}
