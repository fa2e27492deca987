// Verify that any statement can be spawned, as OpenCilk spawns it, in C:
// a block, an expression statement that is not a call (`x[0]++`, a
// compound assignment), an if statement, and a block that spawns and syncs
// itself. The statement is the child: it runs while the continuation
// runs, and its effects are seen after the sync. Blocks spawned in a loop
// read the loop variable as it was at their spawn (a variable the
// statement only reads is passed by value), and get their own locals
// each. Against the serial elision at 1, 2 and 4 workers, with and without
// forced steals, at -O2 and -O0.
// RUN: %clang -O2 %s -o %t.serial
// RUN: %weftcc -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcc -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %t | FileCheck %s
// CHECK: out 110 178 288 466 754 110 178 288 466 754 110 178 288 466 754 110
// CHECK-NEXT: counts 1 5 10 7 3
// CHECK-NEXT: nested 10946 divisible 1
#include <cilk/cilk.h>
#include <stdio.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main(void) {
  long out[16] = {0};
  for (int i = 0; i < 16; ++i) {
    cilk_spawn {
      long v = fib(10 + i % 5);
      out[i] = 2 * v;
    }
  }
  cilk_sync;

  int counts[5] = {0};
  cilk_spawn counts[0]++;
  cilk_spawn {
    counts[1] += 5;
    counts[2] = counts[1] * 2;
  }
  counts[3] = 7;
  cilk_spawn counts[4] += 3;
  cilk_sync;

  long total = 0;
  int divisible = 0;
  cilk_spawn {
    long a = cilk_spawn fib(20);
    long b = fib(19);
    cilk_sync;
    total = a + b;
  }
  cilk_spawn if (fib(10) % 5 == 0) divisible = 1;
  cilk_sync;

  printf("out");
  for (int i = 0; i < 16; ++i)
    printf(" %ld", out[i]);
  printf("\ncounts %d %d %d %d %d\n", counts[0], counts[1], counts[2],
         counts[3], counts[4]);
  printf("nested %ld divisible %d\n", total, divisible);
  return 0;
}
