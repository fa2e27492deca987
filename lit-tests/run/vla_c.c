// Verify C99 variable-length arrays in a spawning C function: one VLA per
// outer iteration, filled by spawned children, read after the sync.
// RUN: %clang -O2 %s -o %t.serial
// RUN: %weftcc -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcc -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <stdio.h>
long fib(long n) { if (n < 2) return n; long x = cilk_spawn fib(n-1); long y = fib(n-2); cilk_sync; return x+y; }
long f(int n) {
  long t = 0;
  for (int i = 1; i < n; i++) {
    long a[i];
    for (int k = 0; k < i; k++) a[k] = cilk_spawn fib(k % 15);
    cilk_sync;
    for (int k = 0; k < i; k++) t = t * 7 + a[k];
  }
  return t;
}
int main(void) { printf("%ld\n", f(60)); return 0; }
