/* Verify that the end of a stack variable's life is an access: a child
 * still filling a VLA, or a local array, of its parent's loop body or
 * block while the continuation leaves that scope races with the scope's
 * end, named at the closing brace. Syncing inside the scope is no race,
 * and then the next iteration's variable at the same address starts
 * fresh; an alloca() block lives until its function returns, after the
 * implicit sync; a spawned call's struct result, one temporary per
 * iteration, is no race either. In C and C++, at -O0 and -O2.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 2 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 2 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 2 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 2 66 %t2cxx | FileCheck %s
 * CHECK: 9 6 18 240 42 360
 */
#include <alloca.h>
#include <cilk/cilk.h>
#include <stdio.h>

__attribute__((noinline)) void fill(int *data, int n, int first) {
  for (int i = 0; i < n; ++i)
    data[i] = first + i; // CHECK-DAG: write of {{[0-9]+}} bytes in fill{{.*}}scope_end.c:[[@LINE]]:
}

/* The VLA of each round dies at the body's end, in the continuation. */
__attribute__((noinline)) long vla_rounds(int rounds, int n) {
  long total = 0;
  for (int r = 0; r < rounds; ++r) {
    int data[n];
    cilk_spawn fill(data, n, r);
    total += r;
  } // CHECK-DAG: scope end of {{[0-9]+}} bytes in vla_rounds{{.*}}scope_end.c:[[@LINE]]:
  cilk_sync;
  return total + rounds * 2;
}

/* A local array of a block that the continuation leaves. */
__attribute__((noinline)) long block_local(int first) {
  long total = first;
  {
    int data[8];
    cilk_spawn fill(data, 8, first);
    total += 1;
  } // CHECK-DAG: scope end of {{[0-9]+}} bytes in block_local{{.*}}scope_end.c:[[@LINE]]:
  cilk_sync;
  return total;
}

/* Synced before the scope ends: no race, and each round's VLA is fresh. */
__attribute__((noinline)) long vla_synced(int rounds, int n) {
  long total = 0;
  for (int r = 0; r < rounds; ++r) {
    int data[n];
    cilk_spawn fill(data, n, r);
    cilk_sync;
    total += data[n - 1];
  }
  return total;
}

/* One alloca() block per round, all alive until the function returns. */
__attribute__((noinline)) long alloca_rounds(int rounds, int n) {
  int *blocks[16];
  for (int r = 0; r < rounds; ++r) {
    blocks[r] = (int *)alloca(n * sizeof(int));
    cilk_spawn fill(blocks[r], n, r);
  }
  cilk_sync;
  long total = 0;
  for (int r = 0; r < rounds; ++r)
    for (int i = 0; i < n; ++i)
      total += blocks[r][i];
  return total;
}

typedef struct {
  long a, b;
} pair;
__attribute__((noinline)) pair make_pair(long k) {
  pair p = {k, 2 * k};
  return p;
}

/* Each spawned call's struct result lands in a temporary of the loop. */
__attribute__((noinline)) long struct_results(int n) {
  pair out[16];
  for (int k = 0; k < n; ++k)
    out[k] = cilk_spawn make_pair(k);
  cilk_sync;
  long total = 0;
  for (int k = 0; k < n; ++k)
    total += out[k].a + out[k].b;
  return total;
}

int main(void) {
  long a = vla_rounds(3, 5), b = block_local(5), c = vla_synced(3, 6);
  long d = alloca_rounds(4, 10), e = 0;
  for (int r = 0; r < 3; ++r)
    e += vla_synced(2, r + 2) + alloca_rounds(2, 3);
  printf("%ld %ld %ld %ld %ld %ld\n", a, b, c, d, e, struct_results(16));
  return 0;
}
