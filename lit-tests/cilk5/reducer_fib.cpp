// Cilk-5 style reducer fib: every leaf adds its value to one global sum
// reducer instead of returning it, so the parent does no additions and
// nothing is returned; the total is right only if every leaf's view is
// merged exactly once. A second reducer counts the calls, checked against
// the closed form 2 fib(n+1) - 1.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 25 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 22
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 16
// CHECK: fib(25) = 75025 calls=242785 ok
#include <cilk/cilk.h>
#include <cilk/reducer_opadd.h>

#include <cstdio>
#include <cstdlib>

static cilk::reducer_opadd<long> sum;
static cilk::reducer<cilk::op_add<long>> calls;

static void fib(int n) {
  ++*calls;
  if (n < 2) {
    sum += n;
    return;
  }
  cilk_spawn fib(n - 1);
  fib(n - 2);
  cilk_sync;
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
    std::fprintf(stderr, "usage: reducer_fib [0..40]\n");
    return 2;
  }
  fib(n);
  long result = sum.get_value();
  bool ok = result == fib_iterative(n) &&
            calls.get_value() == 2 * fib_iterative(n + 1) - 1;
  std::printf("fib(%d) = %ld calls=%ld %s\n", n, result, calls.get_value(),
              ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
