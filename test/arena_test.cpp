// Unit tests of the arena that serves a slow clone's dynamic allocas
// (runtime/arena.cpp): every allocation aligned as asked (at least as
// malloc aligns), distinct and writable whole, chained on the frame's
// arena pointer; large allocations; release frees the chain and leaves an
// empty arena that serves again.
#include "weft/frame_abi.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

/// The arena's blocks, newest first: each block starts with the link to
/// the next (arena.cpp's ArenaBlock).
std::size_t blockCount(void *Arena) {
  std::size_t N = 0;
  for (void *Block = Arena; Block; Block = *static_cast<void **>(Block))
    ++N;
  return N;
}

bool alignedTo(const void *P, std::size_t Align) {
  return reinterpret_cast<std::uintptr_t>(P) % Align == 0;
}

TEST(Arena, AlignsAsAsked) {
  void *Arena = nullptr;
  for (std::uint64_t Align : {1, 2, 4, 8, 16, 32, 64, 128, 4096, 65536}) {
    void *P = __weft_arena_alloc(&Arena, 24, Align);
    ASSERT_NE(P, nullptr);
    EXPECT_TRUE(alignedTo(P, Align)) << "align " << Align;
    // Below max_align_t the block still has malloc's alignment.
    EXPECT_TRUE(alignedTo(P, alignof(std::max_align_t))) << "align " << Align;
  }
  EXPECT_EQ(blockCount(Arena), 10u);
  __weft_arena_release(&Arena);
  EXPECT_EQ(Arena, nullptr);
}

// Each allocation has its own memory: filling one leaves the others'
// contents as they were, across many blocks of varied sizes.
TEST(Arena, AllocationsAreDistinctAcrossBlocks) {
  void *Arena = nullptr;
  std::vector<std::pair<unsigned char *, std::size_t>> Blocks;
  for (std::size_t I = 0; I < 200; ++I) {
    std::size_t Bytes = 1 + (I * 37) % 1000;
    auto *P = static_cast<unsigned char *>(
        __weft_arena_alloc(&Arena, Bytes, std::uint64_t(1) << (I % 8)));
    std::memset(P, int(I & 0xff), Bytes);
    Blocks.emplace_back(P, Bytes);
  }
  EXPECT_EQ(blockCount(Arena), 200u);
  for (std::size_t I = 0; I < Blocks.size(); ++I)
    for (std::size_t B = 0; B < Blocks[I].second; ++B)
      ASSERT_EQ(Blocks[I].first[B], I & 0xff) << "block " << I << " byte " << B;
  __weft_arena_release(&Arena);
  EXPECT_EQ(Arena, nullptr);
}

// A VLA of 64 MiB: one block, writable at both ends.
TEST(Arena, LargeAllocation) {
  void *Arena = nullptr;
  constexpr std::size_t Bytes = std::size_t(64) << 20;
  auto *P = static_cast<char *>(__weft_arena_alloc(&Arena, Bytes, 64));
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(alignedTo(P, 64));
  P[0] = 'a';
  P[Bytes - 1] = 'z';
  EXPECT_EQ(P[0], 'a');
  EXPECT_EQ(P[Bytes - 1], 'z');
  EXPECT_EQ(blockCount(Arena), 1u);
  __weft_arena_release(&Arena);
  EXPECT_EQ(Arena, nullptr);
}

// alloca(0) still gives a distinct, aligned address.
TEST(Arena, ZeroBytes) {
  void *Arena = nullptr;
  void *A = __weft_arena_alloc(&Arena, 0, 16);
  void *B = __weft_arena_alloc(&Arena, 0, 16);
  EXPECT_NE(A, B);
  EXPECT_TRUE(alignedTo(A, 16));
  EXPECT_EQ(blockCount(Arena), 2u);
  __weft_arena_release(&Arena);
}

// A function that never allocated releases an empty arena; a released
// arena serves again (a frame's next activation).
TEST(Arena, ReleaseEmptyAndReuse) {
  void *Arena = nullptr;
  __weft_arena_release(&Arena);
  EXPECT_EQ(Arena, nullptr);
  for (int Round = 0; Round < 3; ++Round) {
    for (int I = 0; I < 5; ++I)
      std::memset(__weft_arena_alloc(&Arena, 100, 8), 0x5a, 100);
    EXPECT_EQ(blockCount(Arena), 5u);
    __weft_arena_release(&Arena);
    EXPECT_EQ(Arena, nullptr);
  }
}

// More than the address space holds: the runtime says so and aborts
// rather than return memory it does not have.
TEST(ArenaDeathTest, ImpossibleSizeAborts) {
  GTEST_FLAG_SET(death_test_style, WEFT_DEATH_TEST_STYLE);
  void *Arena = nullptr;
  EXPECT_DEATH(__weft_arena_alloc(&Arena, ~std::uint64_t(0) - 8, 16),
               "weft: out of memory for a [0-9]+-byte variable-length array");
}

} // namespace
