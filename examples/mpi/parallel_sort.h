// parallel_sort.h: the shared-memory half of the distributed sample sort, a
// merge sort in the manner of Cilk-5's cilksort. Every function here spawns
// and none calls MPI: after a cilk_sync a spawning function may continue on
// another thread than the one that called it, which MPI_THREAD_FUNNELED does
// not allow (docs/scaling-out.md). The MPI calls live in sample_sort.cpp, in
// functions that only call these.
#ifndef WEFT_EXAMPLES_MPI_PARALLEL_SORT_H
#define WEFT_EXAMPLES_MPI_PARALLEL_SORT_H

#include <cilk/cilk.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace psort {

using Key = std::uint64_t;

/// Below these sizes a sort or a merge runs serially: tens of microseconds
/// of work, far more than a spawn costs.
constexpr std::size_t kSerialSort = 4096;
constexpr std::size_t kSerialMerge = 4096;

/// Merges the sorted ranges [a, aEnd) and [b, bEnd) into out. The larger
/// range's middle key splits both ranges (a binary search finds its place
/// in the smaller one), and the two halves merge in parallel, so the span
/// is polylogarithmic instead of linear in the output.
inline void merge(const Key *a, const Key *aEnd, const Key *b, const Key *bEnd,
                  Key *out) {
  if (aEnd - a < bEnd - b) {
    std::swap(a, b);
    std::swap(aEnd, bEnd);
  }
  if (static_cast<std::size_t>((aEnd - a) + (bEnd - b)) < kSerialMerge) {
    std::merge(a, aEnd, b, bEnd, out);
    return;
  }
  const Key *aMid = a + (aEnd - a) / 2;
  const Key *bMid = std::lower_bound(b, bEnd, *aMid);
  Key *outMid = out + (aMid - a) + (bMid - b);
  *outMid = *aMid;
  cilk_spawn merge(a, aMid, b, bMid, out);
  merge(aMid + 1, aEnd, bMid, bEnd, outMid + 1);
  cilk_sync;
}

/// Copies n keys; the copy back after a merge is as much memory traffic as
/// the merge, so it is parallel too.
inline void copy(const Key *from, Key *to, std::size_t n) {
#pragma cilk grainsize 8192
  cilk_for (std::size_t i = 0; i < n; ++i)
    to[i] = from[i];
}

/// Sorts a[0, n) using tmp[0, n) as scratch, cilksort's way: the four
/// quarters sort in parallel in a, pairs of them merge into tmp, and the
/// two halves merge back into a, so no level needs a copy.
inline void sort(Key *a, Key *tmp, std::size_t n) {
  if (n < kSerialSort) {
    std::sort(a, a + n);
    return;
  }
  std::size_t q = n / 4;
  Key *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q, *end = a + n;
  cilk_spawn sort(a, tmp, q);
  cilk_spawn sort(a1, tmp + q, q);
  cilk_spawn sort(a2, tmp + 2 * q, q);
  sort(a3, tmp + 3 * q, n - 3 * q);
  cilk_sync;
  cilk_spawn merge(a, a1, a1, a2, tmp);
  merge(a2, a3, a3, end, tmp + 2 * q);
  cilk_sync;
  merge(tmp, tmp + 2 * q, tmp + 2 * q, tmp + n, a);
}

/// The runs a[offsets[i], offsets[i + 1]) for lo <= i < hi are each sorted;
/// merges them into one sorted range in place, tmp being scratch of the
/// same extent. Halves of the runs merge in parallel, then into each other:
/// log2(hi - lo) levels of parallel merges.
inline void mergeRuns(Key *a, Key *tmp, const std::size_t *offsets, int lo,
                      int hi) {
  if (hi - lo < 2)
    return;
  int mid = lo + (hi - lo) / 2;
  cilk_spawn mergeRuns(a, tmp, offsets, lo, mid);
  mergeRuns(a, tmp, offsets, mid, hi);
  cilk_sync;
  std::size_t first = offsets[lo], middle = offsets[mid], last = offsets[hi];
  merge(a + first, a + middle, a + middle, a + last, tmp + first);
  copy(tmp + first, a + first, last - first);
}

} // namespace psort

#endif // WEFT_EXAMPLES_MPI_PARALLEL_SORT_H
