/* Cilk-5 nqueens in C11: the per-column counts are a VLA and each child's
 * board is a fresh alloca() copy of the parent's prefix, one per loop
 * iteration, as in the original nqueens.cilk. Each call also returns its
 * count through a struct, so children write a struct into the parent's VLA.
 * Checked against the known counts and a serial search on a 2-D VLA board.
 * RUN: %clang -std=c11 -O2 %s -o %t.serial
 * RUN: %t.serial 10 | FileCheck %s
 * RUN: %weftcc -std=c11 -O2 %s -o %t.o2
 * RUN: %run-check %t.o2 %t.serial 9
 * RUN: %weftcc -std=c11 -O0 %s -o %t.o0
 * RUN: %run-check %t.o0 %t.serial 8
 * CHECK: nqueens(10) = 724 solutions, 35539 nodes ok
 */
#include <alloca.h>
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Both the solutions and the number of safe partial boards visited: the node
 * count is a second, larger number that any lost subtree changes. */
struct tally {
  long solutions;
  long nodes;
};

static int safe(int j, const char *a) {
  for (int i = 0; i < j; ++i)
    if (a[i] == a[j] || a[i] - a[j] == j - i || a[j] - a[i] == j - i)
      return 0;
  return 1;
}

static struct tally nqueens(int n, int j, const char *a) {
  struct tally t = {0, 1};
  if (n == j) {
    t.solutions = 1;
    return t;
  }
  struct tally count[n];
  memset(count, 0, sizeof count);
  for (int i = 0; i < n; ++i) {
    char *b = alloca(j + 1);
    memcpy(b, a, j);
    b[j] = (char)i;
    if (safe(j, b))
      count[i] = cilk_spawn nqueens(n, j + 1, b);
  }
  cilk_sync;
  for (int i = 0; i < n; ++i) {
    t.solutions += count[i].solutions;
    t.nodes += count[i].nodes;
  }
  return t;
}

/* Serial reference on an explicit board, n x n, as a VLA parameter. */
static int attacked(int n, char board[n][n], int row, int col) {
  for (int r = 0; r < row; ++r)
    for (int c = 0; c < n; ++c)
      if (board[r][c] && (c == col || c - col == row - r || col - c == row - r))
        return 1;
  return 0;
}

static void place(int n, char board[n][n], int row, struct tally *t) {
  ++t->nodes;
  if (row == n) {
    ++t->solutions;
    return;
  }
  for (int col = 0; col < n; ++col) {
    if (attacked(n, board, row, col))
      continue;
    board[row][col] = 1;
    place(n, board, row + 1, t);
    board[row][col] = 0;
  }
}

int main(int argc, char **argv) {
  static const long known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};
  int n = argc > 1 ? atoi(argv[1]) : 8;
  if (n < 1 || n > 12) {
    fprintf(stderr, "usage: nqueens [1..12]\n");
    return 2;
  }
  char start[1];
  struct tally got = nqueens(n, 0, start);
  char board[n][n];
  memset(board, 0, sizeof board);
  struct tally want = {0, 0};
  place(n, board, 0, &want);
  int good = got.solutions == known[n] && got.solutions == want.solutions &&
             got.nodes == want.nodes;
  printf("nqueens(%d) = %ld solutions, %ld nodes %s\n", n, got.solutions, got.nodes,
         good ? "ok" : "WRONG");
  return good ? 0 : 1;
}
