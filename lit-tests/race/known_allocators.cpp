// Verify that race mode recognises parlaylib's allocator by its names
// (plugin/frontend/KnownAllocators.cpp) without any change to its code:
// parallel iterations take blocks from a pool shaped like parlaylib's
// (Inputs/parlay_like_pool.h: per-worker free lists found through a
// thread-local index, a shared list for large blocks, a type_allocator<T>
// on a block_allocator whose size is a field), write and read them and
// give them back, so that logically parallel iterations get each other's
// blocks. None of that is a race, and none is reported. A child still
// reading a pooled block that the continuation deallocates is a race, and
// is reported as one with a free, of the block's size, in deallocate
// called from the continuation's line. At -O0, -O1 and -O2; the same
// program built normally prints the same sums.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O1 -g %s -o %t1
// RUN: %expect-races 1 66 %t1 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %tn && %tn | FileCheck --check-prefix=NORMAL %s
// CHECK: sums 130816 258048 2016 36
// NORMAL: sums 130816 258048 2016 36
// CHECK: race on {{.*}} between a read and a free
#include "Inputs/parlay_like_pool.h"

#include <cilk/cilk.h>
#include <cstdio>

namespace {

parlay::internal::pool_allocator pool;

struct node {
  long key;
  node *left, *right;
};

constexpr int kIterations = 64, kLongs = 8, kLargeLongs = 64;

__attribute__((noinline)) long sum(const long *p, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i]; // CHECK: read of {{[0-9]+}} bytes in {{.*}}sum{{.*}}known_allocators.cpp:[[@LINE]]:
  return s;
}

__attribute__((noinline)) long small_block(int i) {
  auto *p = static_cast<long *>(pool.allocate(kLongs * sizeof(long)));
  for (int j = 0; j < kLongs; ++j)
    p[j] = i * kLongs + j;
  long s = sum(p, kLongs);
  pool.deallocate(p, kLongs * sizeof(long));
  return s;
}

__attribute__((noinline)) long large_block(int i) {
  auto *p = static_cast<long *>(pool.allocate(kLargeLongs * sizeof(long)));
  for (int j = 0; j < kLargeLongs; ++j)
    p[j] = i + j;
  long s = sum(p, kLargeLongs);
  pool.deallocate(p, kLargeLongs * sizeof(long));
  return s;
}

__attribute__((noinline)) long node_block(int i) {
  node *n = parlay::type_allocator<node>::alloc();
  n->key = i;
  n->left = n->right = nullptr;
  long key = n->key;
  parlay::type_allocator<node>::free(n);
  return key;
}

} // namespace

int main() {
  long smalls[kIterations], larges[kIterations], nodes[kIterations];
  cilk_for (int i = 0; i < kIterations; ++i) {
    smalls[i] = small_block(i);
    larges[i] = large_block(i);
    nodes[i] = node_block(i);
  }
  long small_total = 0, large_total = 0, node_total = 0;
  for (int i = 0; i < kIterations; ++i) {
    small_total += smalls[i];
    large_total += larges[i];
    node_total += nodes[i];
  }

  auto *shared = static_cast<long *>(pool.allocate(kLongs * sizeof(long)));
  for (int j = 0; j < kLongs; ++j)
    shared[j] = j + 1;
  long read_by_child = cilk_spawn sum(shared, kLongs);
  // CHECK: free of 64 bytes in parlay::internal::pool_allocator::deallocate
  pool.deallocate(shared, kLongs * sizeof(long)); // CHECK: #1 main{{.*}}known_allocators.cpp:[[@LINE]]:
  cilk_sync;
  std::printf("sums %ld %ld %ld %ld\n", small_total, large_total, node_total,
              read_by_child);
  return 0;
}
