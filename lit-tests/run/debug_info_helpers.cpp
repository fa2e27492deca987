// Verify programs built with -g at -O1 and above, where Clang tracks
// assignments for the debugger (each store to a variable linked to its
// record by an id): a struct result of a spawned call that may throw is
// stored by a spawn helper, a function of its own, whose copies of the
// stores kept the ids of the parent's records, and the compiler crashed
// in the assignment-tracking analysis. Also a cilk_for whose body is a
// function of its own, and a result stored through a loop's index.
// RUN: %clangxx -O1 %s -o %t.serial
// RUN: %weftcxx -O1 -g %s -o %t.o1
// RUN: %run-check %t.o1 %t.serial
// RUN: %weftcxx -O2 -g %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O1 -g --weft-race %s -o %t.race
// RUN: %t.race > %t.race.out
// RUN: %t.serial | diff - %t.race.out
#include <cilk/cilk.h>
#include <cstdio>

struct Pair {
  long lo, hi;
};

__attribute__((noinline)) static Pair split(long n) {
  if (n < 0)
    throw n;
  return {n, n * 3 + 1};
}

__attribute__((noinline)) static long twice(long n) {
  if (n < 0)
    throw n;
  return 2 * n;
}

static long pairs(long n) {
  Pair p = cilk_spawn split(n);
  long x = n * 2;
  cilk_sync;
  return p.lo + p.hi + x;
}

static long loop(long n) {
  long a[8];
  for (long i = 0; i < 8; ++i)
    a[i] = cilk_spawn twice(n + i);
  long out[16];
  cilk_for (int i = 0; i < 16; ++i) {
    long local = i * n;
    out[i] = local + 1;
  }
  cilk_sync;
  long s = 0;
  for (long v : a)
    s += v;
  for (long v : out)
    s += v;
  return s;
}

int main() {
  long t = 0;
  for (long n = 0; n < 200; ++n)
    t += pairs(n) + loop(n);
  std::printf("%ld\n", t);
}
