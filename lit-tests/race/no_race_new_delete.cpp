// Verify that --weft-race reports nothing when logically parallel children
// each build and destroy objects with new and delete, and std::vector.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 0 0 %t2 | FileCheck %s
// CHECK: races found: 0
#include <cilk/cilk.h>
#include <cstdio>
#include <memory>
#include <vector>

struct Node {
  long value[8];
};

__attribute__((noinline)) long build(int seed) {
  Node *n = new Node;
  for (long &v : n->value)
    v = seed;
  long s = n->value[7];
  delete n;
  std::vector<int> v(100, seed);
  v.push_back(seed);
  auto u = std::make_unique<int[]>(50);
  u[3] = seed;
  return s + v.back() + u[3];
}

int main() {
  long r[8];
  for (int i = 0; i < 8; ++i)
    r[i] = cilk_spawn build(i);
  cilk_sync;
  long total = 0;
  for (long x : r)
    total += x;
  std::printf("%ld\n", total);
  return 0;
}
