// Verify that a parallel loop's chunk reads the parent's locals it captured
// by reference once, at its entry, when nothing can change them while the
// loop runs (finish/ChunkContext.cpp), and keeps reading them in every
// iteration when something can. pfor takes its functor by reference, as
// parlaylib's parallel_for does, and the functor captures by reference:
// the chunk reaches `base` through the context, the functor and the local.
// As parlaylib's, pfor is a spawning function, whose frame also holds the
// functor's address until the end of the pipeline.
//
// fill: consume() may write `base` and `n` for all LLVM knows, and so may
// the store into int elements, so without the hoisting the loop reloads
// them, and the functor and context on the way, after each call; with it
// the loop loads nothing, as in the serial elision, where they are values.
//
// The rest must keep their loads, and their answers are checked against the
// serial elision with forced steals: count writes what it captured, under
// a lock; shared lets its local's address out to bump(), which writes it
// while the loop runs; through reads a local through a captured pointer to
// it and writes it through that pointer. after, seen and kept give the
// address of what their loop reads to a function: after the loop, which
// cannot matter; before it, to one that keeps no copy; and before it, to
// one that may keep it, which must keep the loads.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: %weftcxx -O3 -fno-exceptions -S -emit-llvm %s -o %t.noexc.ll
// RUN: for p in FILL COUNT SHARED THROUGH AFTER SEEN KEPT; do FileCheck %s --check-prefix=$p < %t.ll && FileCheck %s --check-prefix=$p < %t.noexc.ll || exit 1; done
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 100000
// RUN: %run-check %t.o2 %t.serial 777
//
// FILL-LABEL: define internal void @"_Z4pforIRZ4fillPimiE3$_0EvmmOT_l.weft.pfor"(
// FILL: phi i64
// FILL-NOT: load
// FILL: {{^}}}
//
// AFTER-LABEL: define internal void @"_Z4pforIRZ5afterPimE3$_0EvmmOT_l.weft.pfor"(
// AFTER: phi i64
// AFTER-NOT: load
// AFTER: {{^}}}
// SEEN-LABEL: define internal void @"_Z4pforIRZ4seenPimE3$_0EvmmOT_l.weft.pfor"(
// SEEN: phi i64
// SEEN-NOT: load
// SEEN: {{^}}}
// KEPT-LABEL: define internal void @"_Z4pforIRZ4keptPimE3$_0EvmmOT_l.weft.pfor"(
// KEPT: phi i64
// KEPT-NOT: {{^}}}
// KEPT: load i64,
// KEPT-NOT: {{^}}}
// KEPT: {{call|invoke}} {{.*}}@_Z7consumem(
//
// The loads of what the others write come after the lock, in the loop.
// COUNT-LABEL: define internal void @"_Z4pforIRZ5countmE3$_0EvmmOT_l.weft.pfor"(
// COUNT: call {{.*}}@pthread_mutex_lock(
// COUNT-NOT: {{^}}}
// COUNT: load i64,
// SHARED-LABEL: define internal void @"_Z4pforIRZ6sharedmE3$_0EvmmOT_l.weft.pfor"(
// SHARED: call void @_Z4bumpv()
// SHARED-NOT: {{^}}}
// SHARED: load i64,
// SHARED-NOT: {{^}}}
// SHARED: load i64,
// THROUGH-LABEL: define internal void @"_Z4pforIRZ7throughmE3$_0EvmmOT_l.weft.pfor"(
// THROUGH: call {{.*}}@pthread_mutex_lock(
// THROUGH-NOT: {{^}}}
// THROUGH: load i64,
// THROUGH-NOT: {{^}}}
// THROUGH: load i64,
// THROUGH-NOT: {{^}}}
// THROUGH: load i64,
#include <cilk/cilk.h>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <mutex>

// With a grain of 0 the spawning path folds away once inlined, but the
// spawning function's frame, which holds f for that path, stays until the
// end of the pipeline: the functor's address is stored there too.
template <typename F>
inline void pfor(size_t start, size_t end, F &&f, long grain = 0) {
  if (grain == 0) {
    cilk_for (size_t i = start; i < end; i++)
      f(i);
  } else if (end - start <= static_cast<size_t>(grain)) {
    for (size_t i = start; i < end; i++)
      f(i);
  } else {
    size_t mid = start + (end - start) / 2;
    cilk_spawn pfor(start, mid, f, grain);
    pfor(mid, end, f, grain);
    cilk_sync;
  }
}

// Weak, so that LLVM cannot see what it does: it may write any memory whose
// address has been let out.
__attribute__((noinline, weak)) int consume(size_t i) {
  return static_cast<int>(i % 13);
}

__attribute__((noinline)) void fill(int *out, size_t n, int seed) {
  int base = seed * 3 + 1;
  pfor(0, n, [&](size_t i) {
    out[i] = base + consume(i) - static_cast<int>(n);
  });
}

std::mutex lock;

// Each iteration adds to the captured total under a lock: the total's loads
// read what other iterations wrote.
__attribute__((noinline)) long count(size_t n) {
  long total = 0;
  pfor(0, n, [&](size_t i) {
    std::lock_guard<std::mutex> hold(lock);
    total += static_cast<long>(i % 5);
  });
  return total;
}

long *shared_counter;

__attribute__((noinline)) void bump() { ++*shared_counter; }

// bump() writes `counter` through the global while the loop runs; the loop
// reads it through the functor.
__attribute__((noinline)) long shared(size_t n) {
  long counter = 0, sum = 0;
  shared_counter = &counter;
  pfor(0, n, [&](size_t) {
    std::lock_guard<std::mutex> hold(lock);
    bump();
    sum += counter;
  });
  return sum;
}

// The loop writes `value` through `at`, a captured local holding its
// address, and reads it through the functor.
__attribute__((noinline)) long through(size_t n) {
  long value = 0, sum = 0;
  long *at = &value;
  pfor(0, n, [&](size_t) {
    std::lock_guard<std::mutex> hold(lock);
    *at += 2;
    sum += value;
  });
  return sum;
}

// The parent hands `scale`'s address to a function that may keep it, but
// only once the loop is over: the loop still reads it once.
__attribute__((noinline, weak)) long report(const long *at) { return *at; }

__attribute__((noinline)) long after(int *out, size_t n) {
  long scale = static_cast<long>(n % 7) + 1;
  pfor(0, n, [&](size_t i) { out[i] = static_cast<int>(scale * consume(i)); });
  return report(&scale);
}

// Before the loop, to a function that LLVM sees keeps no copy: the same.
__attribute__((noinline)) long peek(const long *at) { return *at * 2; }

__attribute__((noinline)) long seen(int *out, size_t n) {
  long scale = static_cast<long>(n % 5) + 1;
  long doubled = peek(&scale);
  pfor(0, n, [&](size_t i) { out[i] = static_cast<int>(scale + consume(i)); });
  return doubled;
}

// Before the loop, to a function that may keep it (and so let consume()
// write it): the loop reads it in every iteration.
__attribute__((noinline)) long kept(int *out, size_t n) {
  long scale = static_cast<long>(n % 3) + 1;
  long first = report(&scale);
  pfor(0, n, [&](size_t i) { out[i] = static_cast<int>(scale - consume(i)); });
  return first;
}

long checksum(const int *out, size_t n) {
  long check = 0;
  for (size_t i = 0; i < n; i++)
    check = check * 31 + out[i];
  return check;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100000;
  int *out = new int[n];
  fill(out, n, static_cast<int>(n % 97));
  std::printf("fill %ld\n", checksum(out, n));
  std::printf("count %ld\n", count(n));
  std::printf("shared %ld\n", shared(n));
  std::printf("through %ld\n", through(n));
  long reported = after(out, n);
  std::printf("after %ld %ld\n", reported, checksum(out, n));
  long doubled = seen(out, n);
  std::printf("seen %ld %ld\n", doubled, checksum(out, n));
  long first = kept(out, n);
  std::printf("kept %ld %ld\n", first, checksum(out, n));
  delete[] out;
}
