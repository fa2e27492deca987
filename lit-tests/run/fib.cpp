// Verify that fib in the keyword spelling gives its serial elision's answer at
// P=1,2,4 with and without forced steals, at -O0 and -O2.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 24
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 20
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 20;
  std::printf("fib(%ld) = %ld\n", n, fib(n));
}
