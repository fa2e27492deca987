// Regression: a small spawned leaf in a loop with a conditional sync. Once
// LLVM inlined the callee into the spawn, the inlined blocks reloaded the
// loop index from the frame after the push, where a thief had already
// advanced it, and results landed in the wrong slots under stress at P=2.
// Spawned calls are now never inlined into the spawning function: the call
// follows the push's publication of the frame (its release store).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @_Z9loop_syncil(
// CHECK: store atomic i64 {{.*}} release
// CHECK: call {{.*}} @_Z12weighted_sumPKll(
#include <cilk/cilk.h>
#include <cstdio>

long weighted_sum(const long *v, long k) {
  long s = 0;
  for (long i = 0; i < k; i++)
    s += v[i] * (i + 1);
  return s;
}

static long rows[64][64];

long loop_sync(int n, long scale) {
  long out[64];
  for (int i = 0; i < n; i++) {
    long *v = rows[i];
    for (int k = 0; k <= i; k++)
      v[k] = (k + i) * scale;
    out[i] = cilk_spawn weighted_sum(v, i + 1);
    if (i % 5 == 0) {
      cilk_sync;
    }
  }
  cilk_sync;
  long t = 0;
  for (int i = 0; i < n; i++)
    t = t * 31 + out[i];
  return t;
}

int main() {
  for (long scale = 1; scale <= 20; ++scale)
    printf("%ld\n", loop_sync(40 + (int)(scale % 7), scale));
}
