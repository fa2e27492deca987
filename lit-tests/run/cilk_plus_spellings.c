// Verify that <cilk/cilk.h> accepts the keywords' underlying spellings,
// _Cilk_spawn, _Cilk_sync and _Cilk_for (Cilk Plus) and _Cilk_scope
// (OpenCilk), with Cilk Plus's `#pragma cilk grainsize = N`, in C and C++,
// and that they run in parallel (spawns and a parallel loop in the IR) and
// match the serial elision.
// RUN: %clang -std=c11 -Wall -Werror -Wno-unknown-pragmas -O2 %s -o %t.serial
// RUN: %weftcc -std=c11 -Wall -Werror -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -Wall -Werror -O2 -x c++ %s -x none -o %t.cpp
// RUN: %run-check %t.cpp %t.serial
// RUN: %weftcc -std=c11 -O1 -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
// LOWERED: call void @__weft_parallel_for(
// LOWERED: call {{.*}}@__weft_push{{(_preserving)?}}(
#include <cilk/cilk.h>

#include <stdio.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = _Cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  _Cilk_sync;
  return x + y;
}

static void square(long *out, long i) { *out = i * i; }

int main(void) {
  long squares[200];
#pragma cilk grainsize = 4
  _Cilk_for (int i = 0; i < 200; ++i)
    squares[i] = fib(i % 15);
  long a = 0, b = 0;
  _Cilk_scope {
    _Cilk_spawn square(&a, 12);
    _Cilk_spawn square(&b, 13);
  }
  long sum = a + b;
  for (int i = 0; i < 200; ++i)
    sum += squares[i];
  printf("fib(25) = %ld, sum = %ld\n", fib(25), sum);
  return 0;
}
