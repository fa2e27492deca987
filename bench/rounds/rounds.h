// The rounds benchmark's work, shared by every variant: R rounds, each a
// parallel loop over n elements, each element a chain of Chain square
// roots. Round r reads round r-1's array and writes the other one: element
// i starts from the previous round's elements i and n-1-i, so no part of a
// round can start before all of the previous round has ended, and no
// runtime can fuse or pipeline the rounds. What this measures is the cost
// of starting and ending a parallel loop (waking the workers, splitting the
// range, the join) against a little work per round: on one core of a
// current x86, 2000 elements are about 0.1 ms of work, 20000 about 1 ms.
//
// The checksum is exact. Each element's value depends only on the two
// values it reads, its index and the round, through additions and square
// roots, which IEEE 754 rounds the same way everywhere; so every schedule,
// every runtime and both compilers give the same bits.
#ifndef WEFT_BENCH_ROUNDS_H
#define WEFT_BENCH_ROUNDS_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace rounds {

/// The shape when none is given: many rounds of few elements.
constexpr long DefaultRounds = 20000;
constexpr long DefaultN = 2000;

/// Square roots per element: enough that a round is work, few enough that
/// the loop's own cost shows.
constexpr int Chain = 20;

/// The two arrays the rounds alternate between, allocated and filled
/// before the timer starts.
struct Problem {
  long rounds, n;
  std::vector<double> a, b;
};

inline Problem make(long rounds, long n) {
  Problem pr{rounds, n, std::vector<double>(n), std::vector<double>(n)};
  for (long i = 0; i < n; ++i)
    pr.a[i] = static_cast<double>(i % 7);
  return pr;
}

/// Element i of round r, from the previous round's array. std::sqrt may set
/// errno, so neither clang nor g++ vectorizes the loop around it at -O2:
/// every variant runs the same scalar chain.
inline double element(const double *prev, long n, long i, long r) {
  double x = prev[i] + prev[n - 1 - i];
  double c = static_cast<double>(i + r);
  for (int k = 0; k < Chain; ++k)
    x = std::sqrt(x + c);
  return x;
}

/// The array the last round wrote.
inline const std::vector<double> &last(const Problem &pr) {
  return pr.rounds % 2 ? pr.b : pr.a;
}

/// The checked value: the sum of the last round's bit patterns.
inline long long digest(const Problem &pr) {
  std::uint64_t sum = 0;
  for (double x : last(pr)) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    sum += bits;
  }
  return static_cast<long long>(sum);
}

} // namespace rounds

#endif // WEFT_BENCH_ROUNDS_H
