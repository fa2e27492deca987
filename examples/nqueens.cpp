// nqueens: count the placements of n queens on an n x n board, spawning one
// search per safe column of each row. Each child gets its own copy of the
// board prefix, as in the Cilk-5 version (here from the heap, since Weft
// does not yet put alloca() in spawning functions).
//
//   weft-clang++ -O2 nqueens.cpp -o nqueens && WEFT_NWORKERS=2 ./nqueens 12
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static bool safe(const char *board, int row, int col) {
  for (int r = 0; r < row; ++r) {
    int c = board[r];
    if (c == col || c - col == row - r || col - c == row - r)
      return false;
  }
  return true;
}

static long solve(int n, int row, const char *board) {
  if (row == n)
    return 1;
  long *counts = static_cast<long *>(std::calloc(n, sizeof(long)));
  char *boards = static_cast<char *>(std::malloc(static_cast<size_t>(n) * n));
  for (int col = 0; col < n; ++col) {
    if (!safe(board, row, col))
      continue;
    char *child = boards + col * n;
    std::memcpy(child, board, row);
    child[row] = static_cast<char>(col);
    counts[col] = cilk_spawn solve(n, row + 1, child);
  }
  cilk_sync;
  long total = 0;
  for (int col = 0; col < n; ++col)
    total += counts[col];
  std::free(boards);
  std::free(counts);
  return total;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10;
  if (n < 1 || n > 20) {
    std::fprintf(stderr, "usage: nqueens [1..20]\n");
    return 2;
  }
  char board[20] = {};
  std::printf("nqueens(%d) = %ld\n", n, solve(n, 0, board));
  return 0;
}
