// fib on OpenMP tasks (built with clang's libomp and with gcc's libgomp),
// the same recursion with no coarsening.
#include "../common/bench.h"

long fib(long n) {
  if (n < 2)
    return n;
  long x, y;
#pragma omp task shared(x) firstprivate(n)
  x = fib(n - 1);
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, 36);
  bench::run(n, [](long n) {
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(n);
    return r;
  });
}
