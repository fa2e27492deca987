// nqueens on oneTBB task_group: the same recursion as nqueens_cilk.cpp, a
// task per safe column with its own alloca'd board, one wait per node.
#include "../common/bench.h"
#include "nqueens.h"

#include <alloca.h>
#include <cstring>
#include <tbb/global_control.h>
#include <tbb/task_group.h>

static int queens(int n, int j, const char *a) {
  if (n == j)
    return 1;
  int *count = static_cast<int *>(alloca(n * sizeof(int)));
  std::memset(count, 0, n * sizeof(int));
  tbb::task_group g;
  for (int i = 0; i < n; ++i) {
    // A board per child: the child may still be reading its board while this
    // loop writes the next candidate.
    char *b = static_cast<char *>(alloca(j + 1));
    std::memcpy(b, a, j);
    b[j] = static_cast<char>(i);
    if (nqueens::ok(j + 1, b))
      g.run([=] { count[i] = queens(n, j + 1, b); });
  }
  g.wait();
  int solutions = 0;
  for (int i = 0; i < n; ++i)
    solutions += count[i];
  return solutions;
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, nqueens::DefaultN);
  if (n < 1 || n > nqueens::MaxN) {
    std::fprintf(stderr, "usage: %s [n in 1..%ld]\n", argv[0], nqueens::MaxN);
    return 2;
  }
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, bench::threads());
  long r = bench::run(n, [](long n) { return queens(static_cast<int>(n), 0, nqueens::Empty); });
  return r == nqueens::Known[n] ? 0 : bench::mismatch("solutions", r, nqueens::Known[n]);
}
