// Verify that the attribute spelling ([[weft::spawn]] on an assignment and on
// a declaration, [[weft::sync]]) means the same as the keywords.
// RUN: %clangxx -O2 -Wno-unknown-attributes %s -o %t.serial
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

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 20;
  std::printf("fib(%ld) = %ld\n", n, fib(n));
}
