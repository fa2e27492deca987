// Verify that plain C (C11) with <weft/weft.h> works: weft_spawn / weft_sync.
// RUN: %clang -std=c11 -O2 %s -o %t.serial
// RUN: %weftcc -std=c11 -O2 %s -o %t
// RUN: %run-check %t %t.serial 22
#include <stdio.h>
#include <stdlib.h>
#include <weft/weft.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = weft_spawn fib(n - 1);
  long y = fib(n - 2);
  weft_sync;
  return x + y;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20;
  printf("fib(%ld) = %ld\n", n, fib(n));
  return 0;
}
