// The algorithm: a blocked histogram, a recursive reduction and a strided
// initialisation, all parallel.
#include "parallel.h"

#include <utility>
#include <vector>

using Split = std::pair<std::vector<long>, std::vector<long>>;

/// The buckets with an even and with an odd count, by index.
inline Split splitByParity(const std::vector<long> &Counts, long Lo, long Hi) {
  Split Out;
  for (long I = Lo; I < Hi; ++I)
    (Counts[I] % 2 ? Out.second : Out.first).push_back(I);
  return Out;
}

/// Every Stride-th count, summed by a loop whose step is an assignment.
inline long strideSum(const std::vector<long> &Counts, long Stride) {
  long Sum = 0;
  parallel_for (long I = 0; I < (long)Counts.size(); I = I + Stride)
    __atomic_fetch_add(&Sum, Counts[I], __ATOMIC_RELAXED);
  return Sum;
}

/// Two halves split in parallel, each assigned to an existing element.
inline long parityBuckets(const std::vector<long> &Counts) {
  Split Halves[2];
  long Mid = (long)Counts.size() / 2;
  Halves[0] = cilk_spawn splitByParity(Counts, 0, Mid);
  Halves[1] = splitByParity(Counts, Mid, (long)Counts.size());
  cilk_sync;
  return (long)(Halves[0].first.size() + Halves[1].first.size());
}

inline long blockedSum(const std::vector<long> &Counts, long Lo, long Hi) {
  if (Hi - Lo < 16) {
    long Sum = 0;
    for (long I = Lo; I < Hi; ++I)
      Sum += Counts[I];
    return Sum;
  }
  long Mid = Lo + (Hi - Lo) / 2;
  long Left = cilk_spawn blockedSum(Counts, Lo, Mid);
  long Right = blockedSum(Counts, Mid, Hi);
  cilk_sync;
  return Left + Right;
}

inline std::vector<long> histogram(const std::vector<unsigned> &Keys,
                                   long Buckets) {
  long Blocks = 64;
  long PerBlock = (long)(Keys.size() + Blocks - 1) / Blocks;
  std::vector<long> Partial(Blocks * Buckets, 0);
  parallel_for_1 (long B = 0; B < Blocks; B++) {
    long End = std::min<long>((long)Keys.size(), (B + 1) * PerBlock);
    for (long I = B * PerBlock; I < End; I++)
      Partial[B * Buckets + Keys[I] % Buckets]++;
  }
  std::vector<long> Counts(Buckets, 0);
  parallel_for_256 (long K = 0; K < Buckets; K++)
    for (long B = 0; B < Blocks; B++)
      Counts[K] += Partial[B * Buckets + K];
  return Counts;
}
