// DotMix's arithmetic mod p = 2^64 - 59 (weft/pedigree.h) against 128-bit
// division, and the runtime's pedigree API on a thread that never spawns:
// [ordinal, rank], each draw the mix of the sum over its terms.
#include "weft/pedigree.h"

#include <cilk/cilk_api.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <thread>

namespace {

constexpr uint64_t P = WEFT_DPRNG_PRIME;

uint64_t slowMul(uint64_t A, uint64_t B) {
  return uint64_t((unsigned __int128)A * B % P);
}

TEST(Pedigree, MultiplicationModPAgreesWithDivision) {
  const uint64_t Edges[] = {0, 1, 2, 58, 59, 60, P / 3, P / 2, P - 2, P - 1,
                            0xffffffffull, 0x100000000ull};
  for (uint64_t A : Edges)
    for (uint64_t B : Edges)
      EXPECT_EQ(__weft_dprng_mul_mod_p(A, B), slowMul(A, B)) << A << " " << B;
  std::mt19937_64 Random(2026);
  for (int I = 0; I < 200000; ++I) {
    uint64_t A = Random() % P, B = Random() % P;
    ASSERT_EQ(__weft_dprng_mul_mod_p(A, B), slowMul(A, B)) << A << " " << B;
  }
}

TEST(Pedigree, AdditionModPWraps) {
  EXPECT_EQ(__weft_dprng_add_mod_p(P - 1, 1), 0u);
  EXPECT_EQ(__weft_dprng_add_mod_p(P - 1, P - 1), P - 2);
  EXPECT_EQ(__weft_dprng_add_mod_p(3, 4), 7u);
}

TEST(Pedigree, MixIsBelowP) {
  std::mt19937_64 Random(7);
  for (int I = 0; I < 100000; ++I)
    ASSERT_LT(__weft_dprng_mix_mod_p(Random()), P);
}

/// What a strand at [Ordinal, Rank] draws with seed Seed.
uint64_t expectedDraw(uint64_t Seed, uint64_t Ordinal, uint64_t Rank) {
  uint64_t Sum = __weft_dprng_offset(Seed);
  Sum = __weft_dprng_add_mod_p(
      Sum, __weft_dprng_mul_mod_p(Ordinal + 1,
                                  __weft_dprng_table_entry(Seed, 0)));
  Sum = __weft_dprng_add_mod_p(
      Sum, __weft_dprng_mul_mod_p(Rank + 1, __weft_dprng_table_entry(Seed, 1)));
  return __weft_dprng_mix_mod_p(Sum);
}

TEST(Pedigree, ThreadWithoutSpawnsNumbersItsOneStrand) {
  // A thread of its own, so that no other test's draws came before.
  std::thread([] {
    __cilkrts_dprand_set_seed(99);
    __cilkrts_pedigree Leaf = __cilkrts_get_pedigree();
    ASSERT_NE(Leaf.parent, nullptr);
    EXPECT_EQ(Leaf.parent->parent, nullptr);
    uint64_t Ordinal = Leaf.parent->rank;
    EXPECT_GT(Ordinal, 0u) << "only the main thread is 0";
    uint64_t Rank = Leaf.rank;
    for (int I = 1; I <= 5; ++I)
      EXPECT_EQ(__cilkrts_get_dprand(), expectedDraw(99, Ordinal, Rank + I));
    __cilkrts_bump_worker_rank();
    EXPECT_EQ(__cilkrts_get_pedigree().rank, Rank + 6);
    __cilkrts_dprand_set_seed(WEFT_DPRNG_DEFAULT_SEED);
  }).join();
}

} // namespace
