// Compiled by CMake with clang-19 and the Weft plugin; see spawn_kernels.h.
#include "spawn_kernels.h"

#include <cilk/cilk.h>

long weft_test_serial_fib(long n) {
  return n < 2 ? n : weft_test_serial_fib(n - 1) + weft_test_serial_fib(n - 2);
}

long weft_test_fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn weft_test_fib(n - 1);
  long y = weft_test_fib(n - 2);
  cilk_sync;
  return x + y;
}

long weft_test_sum_array(const long *a, long lo, long hi) {
  if (hi - lo <= 4) {
    long s = 0;
    for (long i = lo; i < hi; ++i)
      s += a[i];
    return s;
  }
  long mid = lo + (hi - lo) / 2;
  long left = cilk_spawn weft_test_sum_array(a, lo, mid);
  long right = weft_test_sum_array(a, mid, hi);
  cilk_sync;
  return left + right;
}

static long square(long i) { return i * i; }

// Many spawns from one frame, in a loop, into distinct slots of an array
// that lives in the parent's frame.
long weft_test_loop_spawns(long n) {
  long results[64] = {};
  if (n > 64)
    n = 64;
  for (long i = 0; i < n; ++i)
    results[i] = cilk_spawn square(i);
  cilk_sync;
  long total = 0;
  for (long i = 0; i < n; ++i)
    total += results[i];
  return total;
}

__attribute__((noinline)) static long leaf(long n) { return n % 7; }

// A chain of ordinary calls that spawns a leaf at each level: the first
// steal of each level parks the stack below it until the chain unwinds.
long weft_test_leaf_chain(long n) {
  if (n == 0)
    return 0;
  long a = cilk_spawn leaf(n);
  long b = weft_test_leaf_chain(n - 1);
  cilk_sync;
  return a + b;
}

// Two leaves and then the next level spawned in a loop: a level stolen
// while the rest of the chain runs parks only when the chain returns.
long weft_test_loop_chain(long n) {
  if (n == 0)
    return 0;
  long r[3];
  for (long i = 0; i < 3; ++i) {
    if (i == 2)
      r[i] = cilk_spawn weft_test_loop_chain(n - 1);
    else
      r[i] = cilk_spawn leaf(n + i);
  }
  cilk_sync;
  return r[0] + r[1] + r[2];
}
