// An endless stream of __cilkrts_get_dprand() values on stdout, raw 64-bit
// words, for a statistical battery (bench/dprng/battery.sh): round after
// round, a cilk_for of 2^16 iterations each drawing 16 numbers into its own
// slots, written in the loop's order. Built with pedigrees, the stream is
// the same at every worker count; with an argument N it stops after N
// rounds.
#include <cilk/cilk.h>
#include <cilk/cilk_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  long rounds = argc > 1 ? std::atol(argv[1]) : -1;
  constexpr long kIterations = 1 << 16, kDraws = 16;
  std::vector<uint64_t> block(kIterations * kDraws);
  for (long r = 0; rounds < 0 || r < rounds; ++r) {
    cilk_for (long i = 0; i < kIterations; ++i)
      for (long d = 0; d < kDraws; ++d)
        block[i * kDraws + d] = __cilkrts_get_dprand();
    if (std::fwrite(block.data(), sizeof(uint64_t), block.size(), stdout) !=
        block.size())
      return 0; // the battery has read enough
  }
}
