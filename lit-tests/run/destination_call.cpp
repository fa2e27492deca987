// Verify that a result destination computed by a call that may throw, in a
// scope with a destructor, works: Clang emits that call as an invoke after
// the spawned one, in a block of its own; the spawned call moves down to
// its store, so the destination is evaluated before the spawn as always.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <cstdio>
struct Guard {
  ~Guard() {}
};
__attribute__((noinline)) static long slow(long v) { return v * 10 + 1; }
__attribute__((noinline)) static long idx(long k, long n) { return (k * 7 + n) % 64; }
long f(long n) {
  Guard g;
  long arr[64] = {};
  for (long k = 0; k < n && k < 64; ++k)
    arr[idx(k, n)] = cilk_spawn slow(k);
  cilk_sync;
  long h = 0;
  for (long k = 0; k < 64; ++k)
    h = h * 31 + arr[k];
  return h;
}
int main() { std::printf("%ld\n", f(40)); }
