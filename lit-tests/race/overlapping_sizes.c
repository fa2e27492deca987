/* Verify that --weft-race reports a race between accesses of different
 * sizes that overlap (an 8-byte store by the child, a 1-byte store into
 * its fifth byte by the continuation), and none with a byte just past it.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * CHECK: weft-race:
 */
#include <cilk/cilk.h>
#include <stdint.h>
#include <stdio.h>

struct packed {
  uint64_t word;
  unsigned char after[8];
};

__attribute__((noinline)) void store_word(struct packed *p) {
  p->word = 0x0102030405060708ull; // CHECK-DAG: write{{.*}}overlapping_sizes.c:[[@LINE]]:
}

__attribute__((noinline)) void store_byte(unsigned char *b, unsigned char v) {
  *b = v; // CHECK-DAG: write{{.*}}overlapping_sizes.c:[[@LINE]]:
}

int main(void) {
  struct packed p = {0, {0}};
  cilk_spawn store_word(&p);
  store_byte((unsigned char *)&p.word + 4, 9);
  store_byte(&p.after[0], 9);
  cilk_sync;
  printf("%d\n", p.after[0]);
  return 0;
}
