// Verify that --weft-race reports nothing when logically parallel children
// use the same stack addresses one after another: each spawned call has a
// local array, written through a pointer, at the address its sibling's had.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 0 0 %t2 | FileCheck %s
// CHECK: races found: 0
#include <cilk/cilk.h>
#include <cstdio>

__attribute__((noinline)) void scribble(int *a, int n, int v) {
  for (int i = 0; i < n; ++i)
    a[i] = v + i;
}

__attribute__((noinline)) int work(int v) {
  int local[64];
  scribble(local, 64, v);
  int s = 0;
  for (int x : local)
    s += x;
  return s;
}

int nested(int depth, int v) {
  if (depth == 0)
    return work(v);
  int a = cilk_spawn nested(depth - 1, v);
  int b = cilk_spawn nested(depth - 1, v + 1);
  int c = work(v + 2);
  cilk_sync;
  return a + b + c;
}

int main() {
  int results[4];
  for (int i = 0; i < 4; ++i)
    results[i] = cilk_spawn work(i);
  cilk_sync;
  std::printf("%d %d\n", results[0] + results[3], nested(4, 1));
  return 0;
}
