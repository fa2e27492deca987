/* Verify that --weft-race reports, in C, a write/write race between a
 * spawned child and the continuation on a global, and a race between two
 * children of a cilk_scope on a struct member, but none on the members
 * each writes alone.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 2 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 2 66 %t2 | FileCheck %s
 * CHECK: weft-race:
 */
#include <cilk/cilk.h>
#include <stdio.h>

int level;
struct pair {
  long left, right, both;
};

__attribute__((noinline)) void set_level(int v) {
  level = v; // CHECK-DAG: write{{.*}}child_continuation_write_write_c.c:[[@LINE]]:
}

__attribute__((noinline)) void set_left(struct pair *p) {
  p->left = 1;
  p->both = 1; // CHECK-DAG: write{{.*}}child_continuation_write_write_c.c:[[@LINE]]:
}

__attribute__((noinline)) void set_right(struct pair *p) {
  p->right = 2;
  p->both = 2; // CHECK-DAG: write{{.*}}child_continuation_write_write_c.c:[[@LINE]]:
}

int main(void) {
  cilk_spawn set_level(1);
  level = 2; // CHECK-DAG: write{{.*}}child_continuation_write_write_c.c:[[@LINE]]:
  cilk_sync;
  struct pair p = {0, 0, 0};
  cilk_scope {
    cilk_spawn set_left(&p);
    cilk_spawn set_right(&p);
  }
  printf("%d %ld %ld %ld\n", level, p.left, p.right, p.both);
  return 0;
}
