// The flat-loop benchmark's work, shared by every variant: 2^22
// independent iterations, iteration i counting the Collatz steps of i + 1
// into its own slot, then a serial checksum over the slots. The work per
// iteration is irregular (from 0 to a few hundred steps) and branchy, so it
// measures how each runtime's loop spreads uneven work, and no compiler can
// vectorize it in one variant and not in another.
#ifndef WEFT_BENCH_CILKFOR_H
#define WEFT_BENCH_CILKFOR_H

#include <cstdint>
#include <vector>

namespace cilkfor {

inline std::uint64_t work(std::uint64_t i) {
  std::uint64_t x = i + 1, steps = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++steps;
  }
  return steps;
}

/// The slots, allocated and touched before the timer starts.
inline std::vector<std::uint64_t> &slots() {
  static std::vector<std::uint64_t> out;
  return out;
}

inline long long checksum(long n) {
  std::uint64_t sum = 0;
  for (long i = 0; i < n; ++i)
    sum += slots()[i];
  return static_cast<long long>(sum);
}

} // namespace cilkfor

#endif // WEFT_BENCH_CILKFOR_H
