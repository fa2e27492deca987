// Verify exceptions in spawning functions against the serial elision: a
// spawned child that throws (the exception surfaces at the parent's sync, or
// at its caller), caught in the spawning function around the sync or in a
// caller many levels up; a continuation that throws while stolen children
// are still running (they finish first); spawns and syncs inside try blocks
// and scopes with destructors; every object destroyed exactly once; nothing
// leaked (LeakSanitizer through AddressSanitizer).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>

static std::atomic<long> Live{0};    // Tracker objects alive now
static std::atomic<long> Created{0}; // Tracker objects ever constructed

struct Tracker {
  long id;
  explicit Tracker(long i) : id(i) { ++Live, ++Created; }
  Tracker(const Tracker &o) : id(o.id) { ++Live, ++Created; }
  ~Tracker() { --Live; }
};

struct Bad : std::runtime_error {
  long where;
  explicit Bad(long w) : std::runtime_error("bad " + std::to_string(w)), where(w) {}
};

static long leaf(long n, long bad) {
  if (n == bad)
    throw Bad(n);
  return n;
}

// A tree of spawns with a Tracker live across every spawn and sync; the
// leaf numbered `bad` throws. Without a throw, returns the sum of [lo, hi).
long tree(long lo, long hi, long bad) {
  Tracker t(lo);
  if (hi - lo == 1)
    return leaf(lo, bad);
  long mid = lo + (hi - lo) / 2;
  long a = cilk_spawn tree(lo, mid, bad);
  long b = tree(mid, hi, bad);
  cilk_sync;
  return a + b + (t.id - lo);
}

// The handler sits in the spawning function itself, around the sync.
long caught_at_sync(long n, long bad) {
  try {
    long a = cilk_spawn tree(0, n, bad);
    long b = cilk_spawn tree(n, 2 * n, bad);
    cilk_sync;
    return a + b;
  } catch (const Bad &e) {
    return -e.where;
  }
}

// The continuation throws while the spawned children may still run: they
// must finish (and write their slots) before the exception leaves.
long continuation_throws(long n, long *slots) {
  Tracker t(n);
  for (long i = 0; i < 8; ++i)
    slots[i] = cilk_spawn tree(0, n + i + 1, -1);
  if (n > 0)
    throw Bad(1000 + n);
  cilk_sync;
  return 0;
}

// Nothing throws: spawns inside try blocks and scopes with destructors
// must run exactly as they do elsewhere.
long no_throw_in_try(long n) {
  long total = 0;
  try {
    Tracker outer(n);
    std::string label = "n" + std::to_string(n);
    long x = cilk_spawn tree(0, n, -1);
    long y = cilk_spawn tree(0, n + 1, -1);
    cilk_sync;
    total = x + y + (long)label.size();
  } catch (...) {
    total = -1;
  }
  return total;
}

int main() {
  for (long bad = 0; bad < 40; bad += 3) {
    try {
      long r = tree(0, 40, bad);
      std::printf("tree: no throw? %ld\n", r);
    } catch (const Bad &e) {
      std::printf("tree: caught %s\n", e.what());
    }
  }
  for (long bad = -1; bad < 60; bad += 7)
    std::printf("caught_at_sync(30, %ld) = %ld\n", bad, caught_at_sync(30, bad));
  for (long n = 0; n < 20; n += 4) {
    long slots[8] = {};
    try {
      continuation_throws(n, slots);
      std::printf("continuation(%ld): returned\n", n);
    } catch (const Bad &e) {
      std::printf("continuation(%ld): caught %s\n", n, e.what());
    }
    long sum = 0;
    for (long s : slots)
      sum += s;
    std::printf("continuation(%ld): slots %ld\n", n, sum);
  }
  for (long n = 1; n < 30; n += 5)
    std::printf("no_throw_in_try(%ld) = %ld\n", n, no_throw_in_try(n));
  std::printf("live trackers: %ld\n", Live.load());
  return 0;
}
