// fib on oneTBB task_group, the same recursion with no coarsening.
#include "../common/bench.h"

#include <tbb/global_control.h>
#include <tbb/task_group.h>

long fib(long n) {
  if (n < 2)
    return n;
  long x, y;
  tbb::task_group g;
  g.run([&] { x = fib(n - 1); });
  y = fib(n - 2);
  g.wait();
  return x + y;
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, 36);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            bench::threads());
  bench::run(n, fib);
}
