// Verify evaluation order around spawns against the serial elision: the
// arguments of a spawned call (with side effects: i++, --j, *q++, i += 2,
// calls that bump a counter, conditional and comma operators) are evaluated
// in the parent before the spawn, so the child sees the old value and the
// parent's continuation sees the update at once, also in loops; values the
// parent changes after the spawn do not reach the child (arguments are
// copies, also a struct passed by value); the destination of the result is
// the one named at the spawn even when the index or pointer advances in the
// continuation (a[i] = ..., *p++ = ..., v[i] = ... through operator[],
// s.field, arr[i].field, a global, a computed index); and every result
// store is visible after the sync, also to the next round of spawns; also
// under AddressSanitizer. Where C++ leaves the order of two arguments
// unspecified, both builds use the same compiler, so it is the same.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 40
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 40
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 40
//
// A destination computed by a call that may throw, in a scope with a
// destructor, is covered by run/destination_call.cpp.
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

static unsigned long Hash = 1469598103934665603ul;
static void mix(long v) { Hash = (Hash ^ (unsigned long)v) * 1099511628211ul; }
static void report(const char *what, long n, long v) {
  mix(v);
  std::printf("%-12s n=%-3ld %ld\n", what, n, v);
}

// Children that take a little while, so thieves get to run continuations.
__attribute__((noinline)) static long slow(long v) {
  volatile long spin = 0;
  for (long k = 0; k < 300; ++k)
    spin = spin + k;
  return v * 10 + 1;
}
__attribute__((noinline)) static long pair(long a, long b) { return slow(a) * 1000 + b; }
__attribute__((noinline)) static void put(long *dst, long v) { *dst = slow(v); }
__attribute__((noinline)) static long tick(long *counter) { return ++*counter; }

// The child sees the old value; the continuation sees the new one at once.
static long post_increment(long n) {
  long i = 0;
  long results[64] = {}, seen[64] = {};
  for (long k = 0; k < n && k < 64; ++k) {
    results[k] = cilk_spawn slow(i++);
    seen[k] = i;  // already incremented, while the child may still run
  }
  cilk_sync;
  long h = i;
  for (long k = 0; k < 64; ++k)
    h = h * 31 + results[k] * 7 + seen[k];
  return h;
}

// i++ inside the argument list and the index of the destination: in C++17
// the right operand (the call, with i++) is sequenced before the left, so
// the result lands in results[i + 1].
static long index_after_increment(long n) {
  long i = 0;
  long results[66] = {};
  while (i < n && i < 64)
    results[i] = cilk_spawn slow(i++);
  cilk_sync;
  long h = i;
  for (long k = 0; k < 66; ++k)
    h = h * 31 + results[k];
  return h;
}

// Two arguments reading and advancing the same variable (indeterminately
// sequenced since C++17, which -Wunsequenced does not know), and a void
// spawn whose destination pointer is computed from the variable.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunsequenced"
static long two_arguments(long n) {
  long a[64], out[64] = {}, res[64] = {};
  for (long k = 0; k < 64; ++k)
    a[k] = k * k - 3 * n;
  long i = 0, k = 0;
  while (i + 1 < n && i + 1 < 64) {
    res[k++] = cilk_spawn pair(a[i], i++);
    cilk_spawn put(&out[i], a[i] + i);  // after the increment
  }
  cilk_sync;
  long h = i * 1000 + k;
  for (long m = 0; m < 64; ++m)
    h = h * 31 + res[m] + out[m] * 3;
  return h;
}
#pragma clang diagnostic pop

// Pre-decrement, compound assignment, pointer walks, conditional and comma
// operators, and calls with side effects in the argument list.
static long mixed_side_effects(long n) {
  long src[64], dst[64] = {}, r[8] = {};
  for (long k = 0; k < 64; ++k)
    src[k] = 5 * k + n;
  long j = n, i = 0, counter = 0;
  const long *q = src;
  long *p = dst;
  for (long k = 0; k < n && k < 64; ++k)
    *p++ = cilk_spawn slow(*q++);  // both pointers advance in the parent
  r[0] = cilk_spawn slow(--j);
  r[1] = cilk_spawn slow(i += 2);
  r[2] = cilk_spawn pair(tick(&counter), tick(&counter));
  r[3] = cilk_spawn slow(n % 2 ? i++ : j--);
  r[4] = cilk_spawn slow((i++, i * 3));
  r[5] = cilk_spawn pair(counter, tick(&counter));
  long seen = i * 100000 + j * 1000 + counter * 10 + (p - dst);  // all updated
  cilk_sync;
  long h = seen;
  for (long k = 0; k < 64; ++k)
    h = h * 31 + dst[k];
  for (long v : r)
    h = h * 37 + v;
  return h;
}

// The parent changes the variables after the spawn: the child has copies.
struct Box {
  long a, b, c;
};
__attribute__((noinline)) static long open_box(Box box, long extra) {
  return slow(box.a) + box.b * 100 + box.c * 10000 + extra;
}

static long copies(long n) {
  long v = n * 3;
  Box box{n, n + 1, n + 2};
  long x = cilk_spawn slow(v);
  long y = cilk_spawn open_box(box, v);
  v = -1;
  box.a = box.b = box.c = -7;
  long z = cilk_spawn open_box(box, v);
  cilk_sync;
  return x * 7 + y * 11 + z * 13 + v + box.a;
}

// Destinations named at the spawn, while the continuation moves on.
struct Cell {
  long pad;
  long value;
};
static long Global;
// noexcept here; run/destination_call.cpp covers one that may throw.
__attribute__((noinline)) static long dest_index(long k, long n) noexcept {
  return (k * 7 + n) % 64;
}

static long destinations(long n) {
  long arr[64] = {};
  Cell cells[16] = {};
  std::vector<long> vec(64, -1);
  struct {
    long first, second;
  } s = {0, 0};
  long local = 0;
  long i = 0;
  for (long k = 0; k < n && k < 64; ++k) {
    arr[dest_index(k, n)] = cilk_spawn slow(k);
    vec[i] = cilk_spawn slow(k + 100);  // operator[] on the left
    ++i;
    if (k < 16)
      cells[k].value = cilk_spawn slow(k + 200);
  }
  s.second = cilk_spawn slow(n + 300);
  Global = cilk_spawn slow(n + 400);
  local = cilk_spawn slow(n + 500);
  cilk_sync;
  long h = local + s.first + s.second * 3 + Global * 5;
  for (long k = 0; k < 64; ++k)
    h = h * 31 + arr[k] + vec[k] * 3;
  for (const Cell &c : cells)
    h = h * 37 + c.value + c.pad;
  return h;
}

// Results stored before a sync feed the next round of spawns.
static long rounds(long n) {
  long cur[32], next[32];
  for (long k = 0; k < 32; ++k)
    cur[k] = k + n;
  for (long round = 0; round < 6; ++round) {
    for (long k = 0; k < 32; ++k)
      next[k] = cilk_spawn pair(cur[k], cur[(k + 1) % 32] % 1000);
    cilk_sync;
    for (long k = 0; k < 32; ++k)
      cur[k] = next[k] % 1000003;
  }
  long h = 0;
  for (long v : cur)
    h = h * 31 + v;
  return h;
}

// A recursive spawning function with --d / d-- arguments at every level.
static long walk(long n) {
  if (n <= 0)
    return 1;
  long d = n;
  long a = cilk_spawn walk(--d);  // n - 1
  long b = cilk_spawn walk(d--);  // n - 1 again; d becomes n - 2
  long c = walk(d - 1);           // n - 3
  cilk_sync;
  return (a * 3 + b * 5 + c * 7 + d) % 1000000007;
}

static long recursion(long n) { return walk(n % 14); }

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 40;
  for (long n = 0; n <= N; ++n) {
    report("post_inc", n, post_increment(n));
    report("index_inc", n, index_after_increment(n));
    report("two_args", n, two_arguments(n));
    report("mixed", n, mixed_side_effects(n));
    report("copies", n, copies(n));
    report("dests", n, destinations(n));
    report("rounds", n, rounds(n));
    report("recursion", n, recursion(n));
  }
  std::printf("hash %016lx\n", Hash);
  return 0;
}
