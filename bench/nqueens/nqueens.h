// nqueens, shared by every variant: the board check each node runs and the
// known counts the result is checked against. The recursion itself is in
// each variant's file, written the same way for every runtime.
#ifndef WEFT_BENCH_NQUEENS_H
#define WEFT_BENCH_NQUEENS_H

namespace nqueens {

/// The board side when none is given.
constexpr long DefaultN = 12;

/// Solutions for n = 0..16 (OEIS A000170).
constexpr long Known[] = {1,   1,   0,    0,     2,     10,     4,       40,      92,
                          352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};
constexpr long MaxN = sizeof Known / sizeof Known[0] - 1;

/// The root's board: no queens yet.
inline const char Empty[1] = {};

/// Whether no two of the queens in rows 0..n-1 of board a (a[r] is the
/// column of row r's queen) attack each other. Cilk-5 checks every pair
/// again at each node, O(n^2), rather than only the newest queen: that is
/// the work the original benchmark does per node.
inline bool ok(int n, const char *a) {
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

} // namespace nqueens

#endif // WEFT_BENCH_NQUEENS_H
