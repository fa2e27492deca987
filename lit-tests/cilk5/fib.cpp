// Cilk-5 fib: the doubly recursive Fibonacci, one spawned call and one
// ordinary call per level, checked against the iterative sum. Every level
// below the root is a spawn, so a lost or duplicated child changes the sum.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 25 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 23
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 20
// CHECK: fib(25) = 75025 ok
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>

static long fib(int n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
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
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  if (n < 0 || n > 40) {
    std::fprintf(stderr, "usage: fib [0..40]\n");
    return 2;
  }
  long result = fib(n);
  bool ok = result == fib_iterative(n);
  std::printf("fib(%d) = %ld %s\n", n, result, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
