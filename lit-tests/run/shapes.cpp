// Verify the first-slice constructs against the serial elision: several
// spawns per function, spawns in loops and branches, void spawns writing
// through pointers, results stored into array elements and through pointers,
// implicit conversions of the result, calls through function pointers,
// address-taken locals read after the sync, the implicit sync at return,
// and spawning functions instantiated from a template; also under
// AddressSanitizer.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>
#include <cstdio>

static long leaf(long n) { return 3 * n + 1; }
static int small(int n) { return n % 7; }
static void store_square(long n, long *out) { *out = n * n; }

// Three spawns and a call in one frame; one result widened from int.
long many(long n) {
  if (n < 3)
    return n;
  long a = cilk_spawn many(n - 1);
  long b = cilk_spawn many(n - 2);
  long c = cilk_spawn small((int)n);
  long d = many(n - 3);
  cilk_sync;
  return a + b + c + d;
}

// Spawns in a loop into distinct array slots, then a branchy second loop.
long loop(long n) {
  long slots[32];
  for (long i = 0; i < 32; ++i)
    slots[i] = -1;
  for (long i = 0; i < n && i < 32; ++i)
    slots[i] = cilk_spawn leaf(i);
  cilk_sync;
  for (long i = 0; i < n && i < 32; ++i) {
    if (i % 3 == 0)
      slots[i] = cilk_spawn leaf(slots[i]);
    else if (i % 3 == 1)
      cilk_spawn store_square(i, &slots[i]);
  }
  cilk_sync;
  long sum = 0;
  for (long i = 0; i < 32; ++i)
    sum = sum * 31 + slots[i];
  return sum;
}

// Void spawns that write into the parent's address-taken locals.
long through_pointers(long n) {
  long x = 0, y = 0;
  long *px = &x;
  cilk_spawn store_square(n, px);
  cilk_spawn store_square(n + 1, &y);
  cilk_sync;
  return x + y;
}

// Spawn through a function pointer chosen at run time.
long indirect(long n) {
  long (*f)(long) = (n & 1) ? leaf : many;
  long r = cilk_spawn f(n);
  long s = leaf(n);
  cilk_sync;
  return r - s;
}

// No explicit sync: the implicit sync at return must wait for the child.
static long sink;
static void write_sink(long v) { sink = v; }
void implicit_sync(long n) { cilk_spawn write_sink(n * 2); }

// A spawning function template with two instantiations.
template <typename T> T tree_sum(T depth) {
  if (depth <= 0)
    return 1;
  T left = cilk_spawn tree_sum<T>(depth - 1);
  T right = tree_sum<T>(depth - 1);
  cilk_sync;
  return left + right + depth;
}

// A spawned call on one branch only, syncing after the join point.
long branchy(long n) {
  long r = 0;
  if (n % 2 == 0)
    r = cilk_spawn many(n / 2);
  else
    r = many(n / 2) + 1;
  long t = leaf(n);
  cilk_sync;
  return r + t;
}

int main() {
  for (long n = 0; n < 18; ++n)
    std::printf("many(%ld)=%ld branchy=%ld indirect=%ld\n", n, many(n),
                branchy(n), indirect(n));
  for (long n = 0; n <= 32; n += 5)
    std::printf("loop(%ld)=%ld through=%ld\n", n, loop(n), through_pointers(n));
  for (long n = 0; n < 5; ++n) {
    implicit_sync(n);
    std::printf("sink=%ld\n", sink);
  }
  std::printf("tree<int>=%d tree<long>=%ld\n", tree_sum<int>(12),
              tree_sum<long>(13));
  return 0;
}
