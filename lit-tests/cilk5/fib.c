/* Cilk-5 fib in C11: the doubly recursive Fibonacci with both recursive
 * calls spawned (as the original Cilk-5 fib.cilk does) and the results
 * stored through pointers into the parent's frame, checked against the
 * iterative sum.
 * RUN: %clang -std=c11 -O2 %s -o %t.serial
 * RUN: %t.serial 25 | FileCheck %s
 * RUN: %weftcc -std=c11 -O2 %s -o %t.o2
 * RUN: %run-check %t.o2 %t.serial 20
 * CHECK: fib(25) = 75025 ok
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>

static void fib(int n, long *result) {
  if (n < 2) {
    *result = n;
    return;
  }
  long x, y;
  cilk_spawn fib(n - 1, &x);
  cilk_spawn fib(n - 2, &y);
  cilk_sync;
  *result = x + y;
}

static long fib_iterative(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    long next = a + b;
    a = b;
    b = next;
  }
  return a;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  if (n < 0 || n > 40) {
    fprintf(stderr, "usage: fib [0..40]\n");
    return 2;
  }
  long result;
  fib(n, &result);
  int ok = result == fib_iterative(n);
  printf("fib(%d) = %ld %s\n", n, result, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
