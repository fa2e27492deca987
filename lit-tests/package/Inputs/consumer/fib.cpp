// fib with cilk_spawn, checked against a loop: prints the answer and exits
// with status 1 if it is wrong.
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
  long n = argc > 1 ? std::atol(argv[1]) : 25;
  long a = 0, b = 1;
  for (long i = 0; i < n; ++i) {
    long next = a + b;
    a = b;
    b = next;
  }
  long result = fib(n);
  std::printf("fib(%ld) = %ld %s\n", n, result, result == a ? "ok" : "WRONG");
  return result == a ? 0 : 1;
}
