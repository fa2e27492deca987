// Verify that --weft-race reports a race between a leaf deep in one
// subtree of a spawn tree and a leaf deep in the other subtree, and none
// between the leaves that write cells of their own.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// CHECK: weft-race:
#include <cilk/cilk.h>
#include <cstdio>

int cells[64];
int shared_cell;

__attribute__((noinline)) void leaf(int id) {
  cells[id] = id;
  if (id == 3 || id == 60)
    shared_cell = id; // CHECK-DAG: write{{.*}}deep_subtrees.cpp:[[@LINE]]:
}

void tree(int lo, int hi) {
  if (hi - lo == 1) {
    leaf(lo);
    return;
  }
  int mid = lo + (hi - lo) / 2;
  cilk_spawn tree(lo, mid);
  tree(mid, hi);
}

int main() {
  tree(0, 64);
  long sum = 0;
  for (int c : cells)
    sum += c;
  std::printf("%ld %d\n", sum, shared_cell);
  return 0;
}
