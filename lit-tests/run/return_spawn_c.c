// Verify `return cilk_spawn f(x);` in C against the serial elision, with no
// warning: a converted result (int to long), a pointer, a struct (a plain
// call after the implicit sync), and an earlier child that overlaps with
// the returned call. WEFT_STATS counts the returned calls as spawns.
// RUN: %clang -std=c11 -Werror -O2 %s -o %t.serial
// RUN: %weftcc -std=c11 -Werror -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcc -std=c11 -Werror -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.o2 2>&1 | FileCheck %s
// CHECK: weft-stats: workers=1 threads=1 spawns=1221 steals=0
#include <cilk/cilk.h>
#include <stdio.h>

static void slow_store(long *out, long v) {
  for (volatile int i = 0; i < 5000; ++i) {
  }
  *out = v;
}

static int add(long a, long b) { return (int)(a + b); }

// 609 calls with n >= 2 for fib(14), two spawns each; then pointer's two
// spawns and aggregate's one (its struct result is a plain call): 1221.
static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return cilk_spawn add(x, y);
}

static const char *names[] = {"zero", "one", "two"};
static const char *name(long i) { return names[i % 3]; }
static const char *pointer(long i, long *side) {
  cilk_spawn slow_store(side, i * 11);
  return cilk_spawn name(i);
}

struct pair {
  long a, b;
};
static struct pair make(long v) {
  struct pair p = {v, v * v};
  return p;
}
static struct pair aggregate(long v, long *side) {
  cilk_spawn slow_store(side, v + 1);
  return cilk_spawn make(v);
}

int main(void) {
  long side = 0, side2 = 0;
  const char *s = pointer(4, &side);
  struct pair p = aggregate(6, &side2);
  printf("fib %ld\n", fib(14));
  printf("pointer %s %ld\n", s, side);
  printf("aggregate %ld %ld %ld\n", p.a, p.b, side2);
  return 0;
}
