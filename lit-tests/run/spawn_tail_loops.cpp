// Verify the fast clones whose last recursive call becomes a loop
// (plugin/finish/SpawnTailCalls.cpp) against the serial elision, at 1, 2
// and 4 workers with and without forced steals, so that rounds of the loop
// are stolen from: a sum (fib), a product, a sum whose leaf has a loop of
// its own (the leaf's path never initialises the frame), a void function
// with two spawn points (two resume indices in one loop), an exception
// thrown by the loop's last call several rounds in, a tree whose nodes
// spawn all children but the last in a loop of their own (with results
// summed after the sync, which stays a call, and with none, which becomes
// a loop around that loop), and a function whose
// frame holds a local that its recursive call reads through a pointer,
// which must not become a loop.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// Built with pedigrees, whose syncs' counts the loops carry, the same.
// RUN: %weftcxx --weft-pedigrees -O2 %s -o %t.pedigrees
// RUN: %run-check %t.pedigrees %t.serial
// RUN: %weftcxx --weft-pedigrees -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// IR-LABEL: define {{.*}} @_Z3fibl(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z7productmm(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z9sum_rangePKlll(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z7scatterPlll(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z8throwinglll(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z4markllPl(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z13throwing_herelll(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z11read_parentlPKl(
// IR-NOT: !weft.tail.loop
// IR-LABEL: define {{.*}} @_Z11read_parentlPKl.resume(
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

// The product of the odd numbers 2i + 1 for i in [lo, hi), modulo 2^64.
unsigned long product(unsigned long lo, unsigned long hi) {
  if (hi - lo < 2)
    return lo < hi ? 2 * lo + 1 : 1;
  unsigned long mid = lo + (hi - lo) / 2;
  unsigned long left = cilk_spawn product(lo, mid);
  unsigned long right = product(mid, hi);
  cilk_sync;
  return left * right;
}

long sum_range(const long *a, long lo, long hi) {
  if (hi - lo <= 5) {
    long s = 0;
    for (long i = lo; i < hi; ++i)
      s += a[i] * (i % 3 + 1);
    return s;
  }
  long mid = lo + (hi - lo) / 3;
  long left = cilk_spawn sum_range(a, lo, mid);
  long right = sum_range(a, mid, hi);
  cilk_sync;
  return left + right;
}

// Writes out[i] = i * i over [lo, hi), splitting in halves or thirds.
void scatter(long *out, long lo, long hi) {
  if (hi - lo <= 3) {
    for (long i = lo; i < hi; ++i)
      out[i] = i * i;
    return;
  }
  if ((hi - lo) % 2 == 0) {
    long mid = lo + (hi - lo) / 2;
    cilk_spawn scatter(out, lo, mid);
    scatter(out, mid, hi);
  } else {
    long third = (hi - lo) / 3;
    cilk_spawn scatter(out, lo, lo + third);
    scatter(out, lo + third, hi);
  }
  cilk_sync;
}

// Out of line, so that the string's temporaries stay out of throwing's
// frame, which then stays private and becomes a loop.
[[gnu::noinline]] long leaf(long lo, long bad) {
  if (lo == bad)
    throw std::runtime_error("leaf " + std::to_string(lo));
  return lo;
}

// Throws from the leaf at `bad`, reached by the last call of many rounds.
long throwing(long lo, long hi, long bad) {
  if (hi - lo < 2)
    return leaf(lo, bad);
  long mid = lo + (hi - lo) / 2;
  long left = cilk_spawn throwing(lo, mid, bad);
  long right = throwing(mid, hi, bad);
  cilk_sync;
  return left + right;
}

// An implicit tree, node i's children 4i + 1 .. 4i + 4 below `size`: all
// children but the last spawned in a loop, the last visited in place, so
// that the program's own loop of spawns runs inside each round.
long visit(long node, long size) {
  long sum = node % 97;
  long first = 4 * node + 1;
  if (first >= size)
    return sum;
  long last = first + 3 < size ? first + 3 : size - 1;
  long parts[4] = {};
  for (long c = first; c < last; ++c)
    parts[c - first] = cilk_spawn visit(c, size);
  long tail = visit(last, size);
  cilk_sync;
  for (long p : parts)
    sum += p;
  return sum + tail;
}

// The same tree, each node writing its own slot: the loop of spawns runs
// inside each round of the loop that the last child's call becomes.
void mark(long node, long size, long *out) {
  out[node] = node % 97 + 1;
  long first = 4 * node + 1;
  if (first >= size)
    return;
  long last = first + 3 < size ? first + 3 : size - 1;
  for (long c = first; c < last; ++c)
    cilk_spawn mark(c, size, out);
  mark(last, size, out);
  cilk_sync;
}

// The same, the message built in the leaf itself: the strings are
// temporaries in the frame whose addresses go to the library, on a path
// that makes no more recursive calls, so the frame still counts as private.
long throwing_here(long lo, long hi, long bad) {
  if (hi - lo < 2) {
    if (lo == bad)
      throw std::runtime_error("here " + std::to_string(lo));
    return lo;
  }
  long mid = lo + (hi - lo) / 2;
  long left = cilk_spawn throwing_here(lo, mid, bad);
  long right = throwing_here(mid, hi, bad);
  cilk_sync;
  return left + right;
}

// Its local lives in the frame across the spawn, and the recursive calls
// read it through `parent`: the frame is not the function's alone.
long read_parent(long n, const long *parent) {
  if (n < 2)
    return n + *parent;
  long local = n * 3;
  long x = cilk_spawn read_parent(n - 1, &local);
  long y = read_parent(n - 2, &local);
  cilk_sync;
  return x + y + *parent;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 24;
  std::printf("fib(%ld) = %ld\n", n, fib(n));
  std::printf("product(1, %ld) = %lu\n", 40 * n, product(1, 40 * n));

  std::vector<long> a(1000 * n);
  for (long i = 0; i < (long)a.size(); ++i)
    a[i] = (i * 7919) % 1009 - 500;
  std::printf("sum_range = %ld\n", sum_range(a.data(), 0, (long)a.size()));

  std::vector<long> out(777 * n, -1);
  scatter(out.data(), 0, (long)out.size());
  long check = 0;
  for (long i = 0; i < (long)out.size(); ++i)
    check += out[i] == i * i ? 1 : 0;
  std::printf("scatter: %ld of %zu right\n", check, out.size());

  for (long bad : {0L, 1L, 5L, 63L, 999L}) {
    try {
      std::printf("throwing = %ld\n", throwing(0, 1000, bad));
    } catch (const std::runtime_error &E) {
      std::printf("caught %s\n", E.what());
    }
  }
  std::printf("throwing, none = %ld\n", throwing(0, 1000, -1));
  for (long bad : {0L, 7L, 500L, 998L, -1L}) {
    try {
      std::printf("throwing_here = %ld\n", throwing_here(0, 999, bad));
    } catch (const std::runtime_error &E) {
      std::printf("caught %s\n", E.what());
    }
  }

  std::printf("visit = %ld\n", visit(0, 5000 * n));
  std::vector<long> marks(5000 * n, 0);
  mark(0, (long)marks.size(), marks.data());
  long marked = 0;
  for (long i = 0; i < (long)marks.size(); ++i)
    marked += marks[i] == i % 97 + 1 ? 1 : 0;
  std::printf("mark: %ld of %zu right\n", marked, marks.size());

  long root = 1;
  std::printf("read_parent(%ld) = %ld\n", n - 4, read_parent(n - 4, &root));
}
