// Verify in C that a spawned call in a loop gets the struct arguments its
// statement evaluated when they are too large for registers (passed
// byval): a loop-local struct variable, also one the continuation changes
// right after the spawn, a compound literal, with the result stored. The
// call would copy the struct after the spawn has made the continuation
// stealable, from a frame slot that a thief's next iteration rewrites; the
// copy must be made before the spawn. The children spin before they read
// their arguments so that a thief gets there first.
// RUN: %clang -O2 %s -o %t.serial
// RUN: %weftcc -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcc -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <stdio.h>

enum { N = 6 };

struct Big { /* four words: passed byval on x86-64 */
  long a, b, c, d;
};

static void spin(void) {
  volatile long s = 0;
  for (long i = 0; i < 20000; ++i)
    s = s + i;
}

__attribute__((noinline)) static void take_big(long *out, struct Big v) {
  spin();
  *out = v.a + v.b * 3 + v.c * 7 + v.d * 13;
}

__attribute__((noinline)) static long sum_big(struct Big v) {
  spin();
  return v.a * 11 + v.b + v.c - v.d;
}

static long fold(const long *r) {
  long h = 0;
  for (long i = 0; i < N; ++i)
    h = h * 131 + r[i];
  return h;
}

static long variables(long k) {
  long r[N];
  for (long i = 0; i < N; ++i) {
    struct Big b = {i, k, i * k, i + k};
    cilk_spawn take_big(r + i, b);
  }
  cilk_sync;
  return fold(r);
}

static long changed_after_spawn(long k) {
  long r[N];
  for (long i = 0; i < N; ++i) {
    struct Big b = {i + k, 2 * i, 3 * i, 4 * i};
    cilk_spawn take_big(r + i, b);
    b.a = -1000; /* the child has its copy already */
    b.d = -1000;
  }
  cilk_sync;
  return fold(r);
}

static long literals(long k) {
  long r[N];
  for (long i = 0; i < N; ++i)
    cilk_spawn take_big(r + i, (struct Big){k, i, 100 * i, -i});
  cilk_sync;
  return fold(r);
}

static long results(long k) {
  long r[N];
  for (long i = 0; i < N; ++i) {
    struct Big b = {k, i, i * 3, k - i};
    r[i] = cilk_spawn sum_big(b);
  }
  cilk_sync;
  return fold(r);
}

int main(void) {
  for (long k = 0; k < 12; ++k)
    printf("%ld: %ld %ld %ld %ld\n", k, variables(k), changed_after_spawn(k),
           literals(k), results(k));
  return 0;
}
