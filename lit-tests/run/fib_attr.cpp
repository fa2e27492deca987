// Verify that the attribute spelling ([[weft::spawn]] on an assignment and on
// a declaration, [[weft::sync]]) and the directive spelling (#pragma weft
// spawn on the line before an assignment or a declaration) mean the same as
// the keywords.
// RUN: %clangxx -O2 -Wno-unknown-attributes -Wno-unknown-pragmas %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 22
#include <cstdio>
#include <cstdlib>

long fib(long n) {
  if (n < 2)
    return n;
  long x, y;
  [[weft::spawn]] x = fib(n - 1);
  [[weft::spawn]] long z = fib(n - 2);
  [[weft::sync]];
  y = z; // a spawned result may be read only after the sync
  return x + y;
}

long fib_directive(long n) {
  if (n < 2)
    return n;
  long x;
#pragma weft spawn
  x = fib_directive(n - 1);
#pragma weft spawn
  long y = fib_directive(n - 2);
  [[weft::sync]];
  return x + y;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 20;
  std::printf("fib(%ld) = %ld\n", n, fib(n));
  std::printf("fib(%ld) = %ld\n", n, fib_directive(n));
}
