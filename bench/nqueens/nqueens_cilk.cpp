// Cilk-5 nqueens: counts the placements of n queens on an n x n board. Each
// node allocas its per-column counts and, per candidate column, a copy of
// the board so far for the child to extend; a spawn per safe column, in a
// loop, then one sync and the sum. Compiled with weft-clang++ this is the
// Weft variant; with plain clang++ it is the serial elision.
#include "../common/bench.h"
#include "nqueens.h"

#include <alloca.h>
#include <cilk/cilk.h>
#include <cstring>

static int queens(int n, int j, const char *a) {
  if (n == j)
    return 1;
  int *count = static_cast<int *>(alloca(n * sizeof(int)));
  std::memset(count, 0, n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    // A board per child: the child may still be reading its board while this
    // loop writes the next candidate.
    char *b = static_cast<char *>(alloca(j + 1));
    std::memcpy(b, a, j);
    b[j] = static_cast<char>(i);
    if (nqueens::ok(j + 1, b))
      count[i] = cilk_spawn queens(n, j + 1, b);
  }
  cilk_sync;
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
  long r = bench::run(n, [](long n) { return queens(static_cast<int>(n), 0, nqueens::Empty); });
  return r == nqueens::Known[n] ? 0 : bench::mismatch("solutions", r, nqueens::Known[n]);
}
