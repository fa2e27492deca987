// cilksort, shared by every variant: the input, the serial sort and merge
// the recursion bottoms out in, the cutoffs, and the checks. The parallel
// recursion itself is in each variant's file, written the same way for
// every runtime. The serial parts follow Cilk-5's cilksort.cilk.
#ifndef WEFT_BENCH_CILKSORT_H
#define WEFT_BENCH_CILKSORT_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace cilksort {

using Elm = long;

/// Elements to sort when no count is given.
constexpr long DefaultN = 10000000;

/// Cilk-5's cutoffs: ranges shorter than QuickSize are sorted serially
/// (quicksort, then insertion sort below InsertionSize), and a merge whose
/// smaller input is shorter than MergeSize is done serially. At 2048 a leaf
/// sort or merge is tens of microseconds of work.
constexpr long QuickSize = 2048;
constexpr long MergeSize = 2048;
constexpr long InsertionSize = 20;

/// An order-independent hash of one element, summed over the array: the
/// sorted output must have the sum of the input.
inline uint64_t mix(Elm x) {
  uint64_t z = static_cast<uint64_t>(x) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline uint64_t multiset_sum(const std::vector<Elm> &v) {
  uint64_t s = 0;
  for (Elm x : v)
    s += mix(x);
  return s;
}

/// The problem: sort data, with tmp (the same size) as scratch.
struct Problem {
  std::vector<Elm> data, tmp;
  uint64_t input_sum;
};

/// n pseudo-random longs over the whole range (negative ones included), the
/// same for every variant.
inline Problem make(long n) {
  Problem pr{std::vector<Elm>(n), std::vector<Elm>(n), 0};
  uint64_t state = 2718281828459045235ull;
  for (Elm &x : pr.data) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<Elm>(mix(static_cast<Elm>(state)));
  }
  pr.input_sum = multiset_sum(pr.data);
  return pr;
}

inline Elm med3(Elm a, Elm b, Elm c) {
  if (a < b)
    return b < c ? b : (a < c ? c : a);
  return b > c ? b : (a > c ? c : a);
}

/// Cilk-5's partition of the closed range [low, high] around the median of
/// its first, middle and last elements. Returns p with every element of
/// [low, p] at most every element of [p + 1, high], and low <= p < high.
inline Elm *partition(Elm *low, Elm *high) {
  Elm pivot = med3(*low, *high, low[(high - low) / 2]);
  Elm *lo = low, *hi = high;
  for (;;) {
    Elm h, l;
    while ((h = *hi) > pivot)
      --hi;
    while ((l = *lo) < pivot)
      ++lo;
    if (lo >= hi)
      break;
    *hi-- = l;
    *lo++ = h;
  }
  // hi == high only when everything before it is below the pivot, which
  // is then *high itself: leave that element on the right.
  return hi < high ? hi : hi - 1;
}

/// Insertion sort of [low, low + n).
inline void insertion_sort(Elm *low, long n) {
  for (long q = 1; q < n; ++q) {
    Elm a = low[q];
    long p = q;
    for (; p > 0 && low[p - 1] > a; --p)
      low[p] = low[p - 1];
    low[p] = a;
  }
}

/// Cilk-5's seqquick on [low, low + n): recurse on the left part, loop on
/// the right one, insertion sort for short ranges.
inline void seqquick(Elm *low, long n) {
  while (n >= InsertionSize) {
    Elm *p = partition(low, low + n - 1);
    seqquick(low, p - low + 1);
    n -= p - low + 1;
    low = p + 1;
  }
  insertion_sort(low, n);
}

/// Merges the sorted ranges [low1, high1) and [low2, high2) into dest.
inline void seqmerge(const Elm *low1, const Elm *high1, const Elm *low2, const Elm *high2,
                     Elm *dest) {
  while (low1 < high1 && low2 < high2)
    *dest++ = *low2 < *low1 ? *low2++ : *low1++;
  dest = std::copy(low1, high1, dest);
  std::copy(low2, high2, dest);
}

/// The first element of the sorted range [low, high) that is not below val
/// (Cilk-5's binsplit, for half-open ranges).
inline const Elm *binsplit(Elm val, const Elm *low, const Elm *high) {
  return std::lower_bound(low, high, val);
}

/// The checked value: a position-weighted hash of the sorted array, which
/// every variant must reproduce exactly.
inline long long digest(const Problem &pr) {
  uint64_t h = 0;
  for (size_t i = 0; i < pr.data.size(); ++i)
    h += (i + 1) * mix(pr.data[i]);
  return static_cast<long long>(h >> 1);
}

/// Whether data is sorted and holds the elements of the input.
inline bool check(const Problem &pr) {
  bool sorted = std::is_sorted(pr.data.begin(), pr.data.end());
  bool same = multiset_sum(pr.data) == pr.input_sum;
  if (!sorted)
    std::fprintf(stderr, "bench: WRONG: output not sorted\n");
  if (!same)
    std::fprintf(stderr, "bench: WRONG: output's checksum differs from the input's\n");
  return sorted && same;
}

} // namespace cilksort

#endif // WEFT_BENCH_CILKSORT_H
