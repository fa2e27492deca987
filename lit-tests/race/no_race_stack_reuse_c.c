/* Verify that --weft-race reports nothing, in C, when parallel children
 * reuse the same stack addresses for their locals and VLAs, and when a
 * child's writes through a pointer are read after the sync.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 0 0 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 0 0 %t2 | FileCheck %s
 * CHECK: races found: 0
 */
#include <cilk/cilk.h>
#include <stdio.h>

__attribute__((noinline)) void fill(int *a, int n, int v) {
  for (int i = 0; i < n; ++i)
    a[i] = v;
}

__attribute__((noinline)) int work(int n, int v) {
  int vla[n];
  fill(vla, n, v);
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += vla[i];
  return s;
}

int sum_tree(int depth, int v) {
  if (depth == 0)
    return work(16 + v % 5, v);
  int a = cilk_spawn sum_tree(depth - 1, 2 * v);
  int b = sum_tree(depth - 1, 2 * v + 1);
  cilk_sync;
  return a + b;
}

int main(void) {
  int out[4];
  cilk_spawn fill(out, 4, 7);
  cilk_sync;
  printf("%d %d\n", out[3], sum_tree(6, 1));
  return 0;
}
