// Verify that what the optimizer recomputes on a spawned call's unwind path
// never reaches the continuation a thief runs. A recursive function takes
// blocks by value (three in memory) and spawns itself in loops, as a
// blocked matrix product does; the spawned call may throw, so it is an
// invoke, and at -O2 GVN repeats the load of a by-value parameter's field
// after the landing pad. If the victim's way to the steal point after a
// throw joined the normal one, that load would meet the value from before
// the spawn in a phi, which coro-split stores to the frame only when the
// victim gets there, after the child: a thief resuming earlier reads
// whatever the slot held (a null block pointer). Nothing throws here; the
// path only has to exist.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O3 %s -o %t.o3
// RUN: %run-check %t.o3 %t.serial
#include <cilk/cilk.h>
#include <cstdio>

struct Block {
  long *p;
  long ld;
  Block at(long i, long j) const { return {p + i * ld + j, ld}; }
};

enum { N = 32 };

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 2000; ++i)
    s = s + i;
}

// c += a * b for an n x n block, by quadrants: the four products of each
// half of the inner dimension in a loop, a sync after each half.
static void multiply(long n, Block c, Block a, Block b) {
  if (n == 1) {
    spin();
    c.p[0] += a.p[0] * b.p[0];
    return;
  }
  long h = n / 2;
  for (int k = 0; k < 2; ++k) {
    for (int q = 0; q < 4; ++q) {
      long i = q / 2 * h, j = q % 2 * h;
      cilk_spawn multiply(h, c.at(i, j), a.at(i, k * h), b.at(k * h, j));
    }
    cilk_sync;
  }
}

// The same shape with the loop over both halves and the parameters passed
// on unchanged: the recursive spawn reads the by-value parameters in every
// iteration.
static long count(long n, Block a, Block b, Block c) {
  if (n == 1) {
    spin();
    return a.p[0] + b.p[0] + c.p[0];
  }
  long r[2];
  for (int q = 0; q < 2; ++q)
    r[q] = cilk_spawn count(n / 2, a, b.at(q, 0), c);
  cilk_sync;
  return r[0] + r[1];
}

int main() {
  static long a[N * N], b[N * N], c[N * N];
  for (long i = 0; i < N * N; ++i)
    a[i] = i % 7 - 3, b[i] = i % 5 - 2;
  for (int round = 0; round < 3; ++round) {
    for (long i = 0; i < N * N; ++i)
      c[i] = round;
    multiply(N, Block{c, N}, Block{a, N}, Block{b, N});
    long h = 0;
    for (long i = 0; i < N * N; ++i)
      h = h * 31 + c[i];
    std::printf("multiply %d: %ld\n", round, h);
    std::printf("count %d: %ld\n", round, count(N, Block{a, N}, Block{b, N}, Block{c, N}));
  }
}
