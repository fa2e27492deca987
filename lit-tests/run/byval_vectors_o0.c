/* Verify a 64-byte vector passed by value (in memory, at 64-byte
 * alignment) by a spawning function at -O0, after a small local. coro-split
 * left the function's locals in a block after its entry, where each is a
 * dynamic alloca that moves the stack pointer by 16 bytes; the copy of the
 * argument then faulted on an aligned move to a misaligned stack. The
 * locals now go back to the entry block (FrameToStack.cpp).
 * REQUIRES: avx2
 * RUN: %clang -O0 -mavx2 %s -o %t.serial
 * RUN: %weftcc -O0 -mavx2 %s -o %t
 * RUN: %run-check %t %t.serial
 */
#include <cilk/cilk.h>
#include <stdio.h>

typedef unsigned long v8u __attribute__((vector_size(64)));

__attribute__((noinline)) static v8u make(long n) {
  v8u r = {n, 1, 2, 3, 4, 5, 6, n + 7};
  return r;
}

__attribute__((noinline)) static unsigned long sum(v8u v) {
  unsigned long s = 0;
  for (int i = 0; i < 8; ++i)
    s += v[i] * (i + 1);
  return s;
}

static unsigned long f(long n) {
  v8u v = cilk_spawn make(n);
  unsigned long a = n;
  cilk_sync;
  a += sum(v);
  int z = (int)a; /* the last local: a 4-byte one */
  return a + z;
}

int main(void) {
  unsigned long t = 0;
  for (long n = 0; n < 100; ++n)
    t += f(n);
  printf("%lu\n", t);
  return 0;
}
