// Verify that a function-local static's initialisation orders its
// constructor before every caller that gets past the guard, as C++'s
// one-time initialisation does: two logically parallel children each
// reach a static whose constructor takes a run-time value, and read what
// it wrote, with no race reported; a static whose constructor initialises
// another static of its own too. A plain write to the object in a
// parallel strand still races with the reads (the last part). At -O0 and
// -O2. (The build before this reported 3 races.)
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// CHECK: 7 7 49 49 14 16
// CHECK: race on {{.*}} between a write and a read
// CHECK-DAG: write of 8 bytes in overwrite{{.*}}static_init.cpp:[[@LINE+32]]:
// CHECK-DAG: read of 8 bytes in peek{{.*}}static_init.cpp:[[@LINE+32]]:
// CHECK: races found: 1
#include <cilk/cilk.h>
#include <cstdio>

struct Table {
  long base, square;
  explicit Table(long b) : base(b), square(b * b) {}
};

struct Pair {
  long twice;
  explicit Pair(long b);
};

__attribute__((noinline)) Table &table(long b) {
  static Table t(b);
  return t;
}

Pair::Pair(long b) : twice(2 * table(b).base) {}

__attribute__((noinline)) Pair &pair(long b) {
  static Pair p(b);
  return p;
}

__attribute__((noinline)) long base(long b) { return table(b).base; }
__attribute__((noinline)) long square(long b) { return table(b).square; }

static long late[4];
__attribute__((noinline)) void overwrite(long v) { late[1] = v; }
__attribute__((noinline)) long peek() { return late[1]; }

int main(int argc, char **) {
  long b = argc + 6; // 7, known at run time only
  long x, y, s, t, p, q;
  x = cilk_spawn base(b);
  y = base(b + 1);
  cilk_sync;
  s = cilk_spawn square(b);
  t = square(b);
  cilk_sync;
  p = cilk_spawn [&] { return pair(b).twice; }();
  q = pair(b + 1).twice + 2;
  cilk_sync;
  cilk_spawn overwrite(3);
  long r = peek();
  cilk_sync;
  std::printf("%ld %ld %ld %ld %ld %ld\n", x, y, s, t, p, q + r - late[1]);
  return 0;
}
