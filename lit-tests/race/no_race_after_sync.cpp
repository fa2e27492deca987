// Verify that --weft-race reports nothing where a child's writes are read
// after the sync, where the child's result is returned through the spawn,
// and where serial code on either side of a spawn touches the same data,
// and that the program's status stays 0.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck --allow-empty %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 0 0 %t2 | FileCheck --allow-empty %s
// CHECK: races found: 0
#include <cilk/cilk.h>
#include <cstdio>

__attribute__((noinline)) void fill(int *a, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = i;
}

long fib(int n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main() {
  int a[100];
  a[0] = -1; // before the spawn: serial
  cilk_spawn fill(a, 100);
  cilk_sync;
  long sum = 0;
  for (int v : a)
    sum += v;
  std::printf("%ld %ld\n", sum, fib(15));
  return 0;
}
