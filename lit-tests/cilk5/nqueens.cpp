// Cilk-5 nqueens: count the placements of n queens on an n x n board. Each
// call allocates its per-column counts and, per candidate column, a copy of
// the board prefix with alloca(); the children read their copy while the
// parent goes on allocating the next one, so a board freed or reused early
// shows up as a wrong count. Checked against the known counts and against a
// serial bitmask search.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 10 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 9
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 8
// CHECK: nqueens(10) = 724 ok
#include <alloca.h>
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Is the queen in row n-1 of board a attacked by one of rows 0..n-2?
static bool ok(int n, const char *a) {
  for (int i = 0; i < n; ++i) {
    char p = a[i];
    for (int j = i + 1; j < n; ++j) {
      char q = a[j];
      if (q == p || q == p - (j - i) || q == p + (j - i))
        return false;
    }
  }
  return true;
}

static int nqueens(int n, int j, const char *a) {
  if (n == j)
    return 1;
  int *count = static_cast<int *>(alloca(n * sizeof(int)));
  std::memset(count, 0, n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    // One board per child: the child may still be reading it when this loop
    // writes the next candidate.
    char *b = static_cast<char *>(alloca((j + 1) * sizeof(char)));
    std::memcpy(b, a, j * sizeof(char));
    b[j] = static_cast<char>(i);
    if (ok(j + 1, b))
      count[i] = cilk_spawn nqueens(n, j + 1, b);
  }
  cilk_sync;
  int solutions = 0;
  for (int i = 0; i < n; ++i)
    solutions += count[i];
  return solutions;
}

// The serial reference: the usual bitmask backtracking.
static long count_bitmask(int n, unsigned cols, unsigned left, unsigned right) {
  unsigned all = (1u << n) - 1;
  if (cols == all)
    return 1;
  long total = 0;
  for (unsigned free = all & ~(cols | left | right); free; free &= free - 1) {
    unsigned bit = free & -free;
    total += count_bitmask(n, cols | bit, (left | bit) << 1, (right | bit) >> 1);
  }
  return total;
}

int main(int argc, char **argv) {
  static const long known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712};
  int n = argc > 1 ? std::atoi(argv[1]) : 8;
  if (n < 1 || n > 13) {
    std::fprintf(stderr, "usage: nqueens [1..13]\n");
    return 2;
  }
  char *board = static_cast<char *>(alloca(n));
  int result = nqueens(n, 0, board);
  bool good = result == known[n] && result == count_bitmask(n, 0, 0, 0);
  std::printf("nqueens(%d) = %d %s\n", n, result, good ? "ok" : "WRONG");
  return good ? 0 : 1;
}
