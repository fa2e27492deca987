/* Verify that a program using the pedigree API builds as its serial
 * elision with any compiler (the stand-ins in <cilk/cilk_api.h>), and that
 * the stand-ins number its one strand as the runtime numbers a program that
 * never spawns: the same pedigrees and the same random numbers, seeded or
 * not, with plain clang as with Weft.
 * RUN: %clang -O2 %s -o %t.serial
 * RUN: %weftcc --weft-pedigrees -O2 %s -o %t
 * RUN: %t.serial > %t.serial.out
 * RUN: %t > %t.weft.out
 * RUN: diff %t.serial.out %t.weft.out
 * RUN: FileCheck %s < %t.weft.out
 * CHECK: [0, 0]
 * CHECK-NEXT: [0, 1]
 * CHECK-NEXT: [0, 3]
 * CHECK: draws differ 1
 */
#include <cilk/cilk_api.h>
#include <inttypes.h>
#include <stdio.h>

static void show(void) {
  __cilkrts_pedigree leaf = __cilkrts_get_pedigree();
  uint64_t terms[8];
  int n = 0;
  terms[n++] = leaf.rank;
  for (const __cilkrts_pedigree *p = leaf.parent; p && n < 8; p = p->parent)
    terms[n++] = p->rank;
  printf("[");
  while (n-- > 0)
    printf("%" PRIu64 "%s", terms[n], n ? ", " : "]\n");
}

int main(void) {
  show();
  __cilkrts_bump_worker_rank();
  show();
  uint64_t a = __cilkrts_get_dprand();
  uint64_t b = __cilkrts_get_dprand();
  show();
  printf("%" PRIu64 " %" PRIu64 "\n", a, b);
  __cilkrts_dprand_set_seed(42);
  __cilkrts_init_dprng();
  uint64_t c = __cilkrts_get_dprand();
  printf("%" PRIu64 "\ndraws differ %d\n", c, a != b && b != c);
  return 0;
}
