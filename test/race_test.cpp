//===- race_test.cpp - The race runtime, driven by hand -------------------===//
//
// Each test plays what a race-mode program would call: the Weft hooks for
// its series-parallel structure and the ThreadSanitizer entries for its
// accesses, and checks the races the detector found. A race is counted
// once per pair of code addresses, so each access below is its own call.
// The report's format and the exit status are checked in death tests,
// which run the report at exit in a child process.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"
#include "analysis/race/race_abi.h"

#include <weft/reducer.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void __tsan_func_entry(void *);
void __tsan_func_exit(void);
void __tsan_read1(void *);
void __tsan_read4(void *);
void __tsan_read8(void *);
void __tsan_write1(void *);
void __tsan_write2(void *);
void __tsan_write4(void *);
void __tsan_write8(void *);
void __tsan_unaligned_write4(void *);
void __tsan_unaligned_read8(const void *);
void __tsan_read16(void *);
void __tsan_write16(void *);
void __tsan_read_range(void *, unsigned long);
void __tsan_write_range(void *, unsigned long);
void __weft_race_read_range(const void *, std::uint64_t);
void __weft_race_write_range(void *, std::uint64_t);
void __weft_race_dead_slot(void *, std::uint64_t);
void *__tsan_memcpy(void *, const void *, std::size_t);
void *__tsan_memset(void *, int, std::size_t);
void __tsan_vptr_update(void **, void *);
void __tsan_vptr_read(void **);
std::uint32_t __tsan_atomic32_fetch_add(volatile std::uint32_t *, std::uint32_t, int);
std::uint64_t __tsan_atomic64_compare_exchange_val(volatile std::uint64_t *,
                                                   std::uint64_t, std::uint64_t,
                                                   int, int);
}

namespace {

using weft::race::detector;
using weft::race::Detector;

class Race : public ::testing::Test {
protected:
  void SetUp() override { detector().reset(); }
  // Nothing found is left for the report at the test program's exit.
  void TearDown() override { detector().reset(); }
  static std::size_t races() { return detector().races().size(); }
};

alignas(16) std::uint64_t Words[8];

TEST_F(Race, ChildWriteContinuationRead) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write4(&Words[0]);
  __weft_race_continue(F);
  __tsan_read4(&Words[0]);
  __weft_race_sync(F);
  __weft_race_exit(F);
  ASSERT_EQ(races(), 1u);
  EXPECT_TRUE(detector().races()[0].EarlierWrite);
  EXPECT_FALSE(detector().races()[0].LaterWrite);
}

TEST_F(Race, ChildReadContinuationWrite) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_read8(&Words[0]);
  __weft_race_continue(F);
  __tsan_write8(&Words[0]);
  __weft_race_exit(F);
  ASSERT_EQ(races(), 1u);
  EXPECT_FALSE(detector().races()[0].EarlierWrite);
  EXPECT_TRUE(detector().races()[0].LaterWrite);
}

TEST_F(Race, ReadsNeverRace) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_read8(&Words[0]);
  __weft_race_continue(F);
  __tsan_read8(&Words[0]);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, ChildsWriteReadAfterSync) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Words[0]);
  __weft_race_continue(F);
  __weft_race_sync(F);
  __tsan_read8(&Words[0]);
  __tsan_write8(&Words[0]);
  __weft_race_exit(F);
  // And after the function returned, in its caller.
  __tsan_write8(&Words[0]);
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, SiblingsWriteWrite) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Words[1]);
  __weft_race_continue(F);
  __weft_race_spawn(F);
  __tsan_write8(&Words[1]);
  __weft_race_continue(F);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u);
}

TEST_F(Race, CalleeIsSerial) {
  // A called spawning function's accesses precede what follows the call.
  std::uint32_t F = __weft_race_enter();
  std::uint32_t G = __weft_race_enter();
  __weft_race_spawn(G);
  __tsan_write8(&Words[2]);
  __weft_race_continue(G);
  __weft_race_exit(G);
  __weft_race_spawn(F);
  __tsan_write8(&Words[2]);
  __weft_race_continue(F);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 0u);
}

/// A subtree: spawns a child that runs a spawning function, whose own
/// child makes the access.
void deepAccess(std::uint32_t Parent, void *P, bool Write) {
  __weft_race_spawn(Parent);
  std::uint32_t G = __weft_race_enter();
  __weft_race_spawn(G);
  if (Write)
    __tsan_write4(P);
  else
    __tsan_read4(P);
  __weft_race_continue(G);
  __weft_race_exit(G);
  __weft_race_continue(Parent);
}

TEST_F(Race, DeepInOneSubtreeAgainstAnother) {
  std::uint32_t F = __weft_race_enter();
  deepAccess(F, &Words[3], true);
  std::uint32_t H = __weft_race_enter(); // a cilk_scope in the continuation
  __weft_race_spawn(H);
  __tsan_read4(&Words[3]);
  __weft_race_continue(H);
  __weft_race_exit(H);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u);
}

TEST_F(Race, LoopIterations) {
  // A cilk_for: a called procedure whose iterations are spawned; iteration
  // I writes A[I] and reads A[I - 1]. Ints: two to a granule.
  alignas(8) static int A[16];
  std::uint32_t L = __weft_race_enter();
  for (int I = 0; I < 16; ++I) {
    __weft_race_spawn(L);
    __tsan_write4(&A[I]);
    __weft_race_continue(L);
  }
  __weft_race_exit(L);
  EXPECT_EQ(races(), 0u) << "distinct elements of one granule";
  L = __weft_race_enter();
  // One body at one code address, as a cilk_for's: unrolled, each copy of
  // the read and the write would be a site of its own.
#pragma GCC unroll 1
  for (int I = 0; I < 16; ++I) {
    __weft_race_spawn(L);
    __tsan_write4(&A[I]);
    if (I > 0)
      __tsan_read4(&A[I - 1]);
    __weft_race_continue(L);
  }
  __weft_race_exit(L);
  EXPECT_EQ(races(), 1u) << "one pair of code addresses";
  EXPECT_GE(detector().races().size(), 1u);
}

TEST_F(Race, ParallelReadersOfOneGranule) {
  alignas(8) static int A[2];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_read4(&A[0]);
  __weft_race_continue(F);
  __weft_race_spawn(F);
  __tsan_read4(&A[1]);
  __weft_race_continue(F);
  __tsan_write4(&A[0]);
  EXPECT_EQ(races(), 1u);
  __tsan_write4(&A[1]);
  EXPECT_EQ(races(), 2u);
  __weft_race_exit(F);
}

TEST_F(Race, ThreeWritersOfOneGranule) {
  alignas(8) static char C[8];
  std::uint32_t F = __weft_race_enter();
  for (int I = 0; I < 3; ++I) {
    __weft_race_spawn(F);
    __tsan_write1(&C[I]);
    __weft_race_continue(F);
  }
  EXPECT_EQ(races(), 0u);
  __tsan_read1(&C[0]);
  __tsan_read1(&C[1]);
  __tsan_read1(&C[2]);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 3u);
}

TEST_F(Race, ReadAfterOwnWriteAndSerialReads) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Words[0]);
  __tsan_read8(&Words[0]); // no record needed: its own write covers it
  __weft_race_continue(F);
  __weft_race_sync(F);
  __tsan_read8(&Words[0]);
  __weft_race_spawn(F);
  __tsan_read8(&Words[0]); // parallel readers never race
  __weft_race_continue(F);
  __weft_race_sync(F);
  __tsan_write8(&Words[0]); // after the sync: serial with every read
  __weft_race_exit(F);
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, OverlapOfDifferentSizes) {
  alignas(16) static unsigned char B[32];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write1(&B[3]);
  __tsan_unaligned_write4(&B[6]); // bytes 6..9, across two granules
  __tsan_write2(&B[20]);
  __weft_race_continue(F);
  __tsan_read8(&B[0]); // covers byte 3 and bytes 6, 7
  EXPECT_EQ(races(), 2u);
  __tsan_write1(&B[9]); // the 4-byte write's second granule
  EXPECT_EQ(races(), 3u);
  __tsan_write2(&B[18]); // next to the 2-byte write, not on it
  __tsan_write1(&B[22]);
  EXPECT_EQ(races(), 3u);
  __tsan_unaligned_read8(&B[15]); // bytes 15..22, over B[20]
  EXPECT_EQ(races(), 4u);
  __weft_race_exit(F);
}

TEST_F(Race, SixteenBytesAndRanges) {
  alignas(16) static unsigned char B[64];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write16(&B[0]);
  __tsan_write_range(&B[32], 20);
  __weft_race_continue(F);
  __tsan_read1(&B[15]);
  __tsan_read_range(&B[51], 4); // byte 51 is the range's last
  __tsan_read_range(&B[52], 4); // after it
  __weft_race_exit(F);
  EXPECT_EQ(races(), 2u);
}

// The access filter: a read dropped after its procedure's own write, and
// repeated 16-byte reads dropped, find what the full checks would.
TEST_F(Race, FilteredAccessesKeepTheRaces) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Words[0]);
  __tsan_read16(&Words[2]);
  __tsan_read16(&Words[2]); // a repeat
  __weft_race_continue(F);
  __tsan_write8(&Words[0]); // races with the child's write
  EXPECT_EQ(races(), 1u);
  __tsan_read8(&Words[0]); // its own write holds the bytes: no new race
  __tsan_read4(&Words[0]);
  EXPECT_EQ(races(), 1u);
  __tsan_write16(&Words[2]); // races with the child's reads, both granules
  EXPECT_EQ(races(), 2u);
  __weft_race_sync(F);
  __weft_race_exit(F);
}

__attribute__((noinline)) void readRange(void *P, unsigned long Size) {
  __tsan_read_range(P, Size); // one code address for every size
  asm volatile("");            // (not a tail call, which would return past it)
}

// A range at the same code but of another size is not a repeat: the record
// takes its site (and size).
TEST_F(Race, RangeOfAnotherSizeIsRecorded) {
  alignas(16) static unsigned char B[16];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  static volatile unsigned long Sizes[] = {16, 8}; // not constants: one copy
  readRange(B, Sizes[0]);                          // of readRange
  readRange(B, Sizes[1]);
  __weft_race_continue(F);
  __tsan_write1(&B[0]);
  __weft_race_exit(F);
  ASSERT_EQ(races(), 1u);
  EXPECT_EQ(detector().sites().siteOf(detector().races()[0].Earlier).Size, 8u);
}

__attribute__((noinline)) void writeRow(void *P, std::uint64_t Size) {
  __weft_race_write_range(P, Size); // one code address, as a loop body's
  asm volatile("");
}
__attribute__((noinline)) void readRow(const void *P, std::uint64_t Size) {
  __weft_race_read_range(P, Size);
  asm volatile("");
}

// The range filter drops a range that repeats with nothing changed since:
// here the procedure's own write at other code takes one granule over
// between the repeats, so the repeat is checked again and its record, the
// last write in the serial order, is what the continuation races with.
TEST_F(Race, RangeRepeatedAfterAChangeIsChecked) {
  alignas(64) static double Row[32];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  writeRow(Row, sizeof Row);
  __tsan_write8(&Row[3]);
  writeRow(Row, sizeof Row);
  __weft_race_continue(F);
  __tsan_read8(&Row[3]);
  __weft_race_exit(F);
  ASSERT_EQ(races(), 1u);
  EXPECT_EQ(detector().sites().siteOf(detector().races()[0].Earlier).Size,
            sizeof Row);
}

// A repeat in another strand (a hook in between) is checked: two
// parallel children's updates of one row, from the same code, race.
TEST_F(Race, RangeRepeatedInAParallelStrandRaces) {
  alignas(64) static double Row[32];
  std::uint32_t F = __weft_race_enter();
  for (int Child = 0; Child < 2; ++Child) {
    __weft_race_spawn(F);
    readRow(Row, sizeof Row);
    writeRow(Row, sizeof Row);
    readRow(Row, sizeof Row); // a repeat in the same strand: dropped
    writeRow(Row, sizeof Row);
    __weft_race_continue(F);
  }
  __weft_race_exit(F);
  // The second child's read and its write, each against the first's
  // write (which took over the first's read of the same bytes).
  EXPECT_EQ(races(), 2u);
}

// The whole granules a range check passes quickly, its own write for a
// read and parallel procedures' reads, keep the races of what they skip.
TEST_F(Race, RangeChecksQuickGranulesKeepTheRaces) {
  alignas(64) static double Row[32];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  writeRow(Row, sizeof Row);
  readRow(Row, sizeof Row); // its own write holds every granule
  __weft_race_continue(F);
  __weft_race_spawn(F);
  readRow(&Row[16], 16 * sizeof(double)); // against the first child's write
  __weft_race_continue(F);
  EXPECT_EQ(races(), 1u);
  __weft_race_sync(F);
  // Two parallel readers of the rest of the row, then a writer parallel
  // with both: the second reader's granules already hold the first's
  // reads, and the write still finds them.
  __weft_race_spawn(F);
  readRow(Row, 16 * sizeof(double));
  __weft_race_continue(F);
  __weft_race_spawn(F);
  readRow(Row, 16 * sizeof(double));
  __weft_race_continue(F);
  __tsan_write8(&Row[5]);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 2u);
}

// A range across the boundary between two MiB of shadow cells, which live
// in two separate mappings, starting and ending inside granules.
TEST_F(Race, RangeAcrossShadowChunks) {
  constexpr std::size_t MiB = std::size_t(1) << 20;
  auto *Buffer = static_cast<unsigned char *>(std::aligned_alloc(MiB, 2 * MiB));
  ASSERT_NE(Buffer, nullptr);
  unsigned char *Start = Buffer + MiB - 61;
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  writeRow(Start, 125); // bytes MiB - 61 .. MiB + 63
  __weft_race_continue(F);
  __tsan_read1(Start);           // its first byte
  __tsan_read1(Buffer + MiB);    // the first of the second MiB
  __tsan_read4(Start + 124);     // its last byte and three after it
  __tsan_read1(Start - 1);       // before it: no race
  __tsan_read1(Start + 125);     // after it: no race
  __weft_race_exit(F);
  EXPECT_EQ(races(), 3u);
  std::free(Buffer);
}

// A stack node keeps the innermost kStackDepth frames, what a report
// shows: a deep recursion from two call sites in random order makes at
// most one node per window of frames, and each node gives its window,
// innermost first.
TEST(RaceSites, StacksKeepTheirInnermostFrames) {
  using weft::race::kRootStack;
  using weft::race::kStackDepth;
  using weft::race::StackId;
  weft::race::Sites Sites;
  std::vector<std::uintptr_t> Calls; // return addresses, outermost first
  std::vector<StackId> Stacks{kRootStack};
  std::uint64_t Random = 42;
  for (int Depth = 0; Depth < 5000; ++Depth) {
    Random = Random * 6364136223846793005ull + 1442695040888963407ull;
    std::uintptr_t Pc = 0x1000 + (Random >> 63) * 0x10;
    Calls.push_back(Pc);
    Stacks.push_back(Sites.child(Stacks.back(), Pc));
    std::vector<std::uintptr_t> Want(
        Calls.rbegin(),
        Calls.rbegin() + std::min<std::size_t>(Calls.size(), kStackDepth));
    ASSERT_EQ(Sites.pcs(Stacks.back(), kStackDepth + 3), Want) << Depth;
  }
  // Returning and calling again finds the same nodes.
  for (int Depth = 4999; Depth > 4000; --Depth)
    ASSERT_EQ(Sites.child(Stacks[Depth], Calls[Depth]), Stacks[Depth + 1]);
  // Windows of 1 to kStackDepth frames over two call sites, and the root.
  EXPECT_LE(Sites.stacks(), (std::size_t(2) << kStackDepth) - 1);
}

TEST_F(Race, MemIntrinsicsAreRangeAccesses) {
  static char Src[100], Dst[100];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_memcpy(Dst, Src, sizeof Dst);
  __weft_race_continue(F);
  __tsan_write1(&Src[50]); // against the copy's read
  __tsan_read1(&Dst[99]);  // against its write
  __tsan_memset(Src, 0, 10);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 3u);
}

struct Base {
  virtual ~Base() = default;
};

TEST_F(Race, VtablePointer) {
  void *Vptr[1] = {nullptr};
  int Dummy;
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_vptr_update(Vptr, &Dummy);
  __weft_race_continue(F);
  __tsan_vptr_read(Vptr);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u);
}

TEST_F(Race, AtomicsAreNeverRaces) {
  static std::uint32_t Counter;
  static std::uint64_t Word;
  Counter = 0;
  Word = 1;
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_atomic32_fetch_add(&Counter, 1, 5);
  EXPECT_EQ(__tsan_atomic64_compare_exchange_val(&Word, 1, 7, 5, 5), 1u);
  __weft_race_continue(F);
  __tsan_atomic32_fetch_add(&Counter, 1, 0);
  EXPECT_EQ(__tsan_atomic64_compare_exchange_val(&Word, 1, 9, 5, 5), 7u);
  __weft_race_exit(F);
  EXPECT_EQ(Counter, 2u);
  EXPECT_EQ(Word, 7u);
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, FreedHeapReusedInParallel) {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  void *P = std::malloc(48);
  __tsan_write8(P);
  std::free(P);
  __weft_race_continue(F);
  void *Q = std::malloc(48); // most likely P again
  __tsan_write8(Q);
  void *R = std::realloc(Q, 4096); // moves: Q's block is free
  __weft_race_exit(F);
  F = __weft_race_enter();
  __weft_race_spawn(F);
  void *S = std::malloc(48); // most likely Q's old block
  __tsan_write8(S);
  __weft_race_continue(F);
  __weft_race_exit(F);
  std::free(S); // after the child: no race
  std::free(R);
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, FreeRacesWithAParallelAccess) {
  // A child writes a block that its continuation frees: the free is an
  // access, reported at the next hook; after the sync it is none.
  std::uint32_t F = __weft_race_enter();
  void *P = std::malloc(48);
  __weft_race_spawn(F);
  __tsan_write8(static_cast<char *>(P) + 8);
  __weft_race_continue(F);
  std::free(P);
  __weft_race_exit(F);
  ASSERT_EQ(races(), 1u);
  EXPECT_TRUE(detector().races()[0].EarlierWrite);
  EXPECT_TRUE(detector().races()[0].LaterWrite);
  EXPECT_EQ(detector().releaseAt(
                detector().sites().siteOf(detector().races()[0].Later).Pc),
            Detector::Release::Free);
  void *Q = std::malloc(48);
  F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_read8(Q);
  __weft_race_continue(F);
  __weft_race_sync(F);
  std::free(Q);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u);
}

TEST_F(Race, ScopeEndRacesWithAParallelAccess) {
  // A child writes a VLA of the loop body that its continuation leaves:
  // the scope's end is an access, named so; after the sync it is none,
  // and the slot starts fresh either way.
  alignas(16) char Slot[32];
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(Slot + 8);
  __weft_race_continue(F);
  __weft_race_dead_slot(Slot, sizeof Slot);
  __weft_race_exit(F);
  ASSERT_EQ(races(), 1u);
  EXPECT_EQ(detector().releaseAt(
                detector().sites().siteOf(detector().races()[0].Later).Pc),
            Detector::Release::ScopeEnd);
  F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(Slot);
  __weft_race_continue(F);
  __weft_race_sync(F);
  __weft_race_dead_slot(Slot, sizeof Slot);
  __weft_race_spawn(F);
  __tsan_write8(Slot); // a new variable in the slot
  __weft_race_continue(F);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u);
}

TEST_F(Race, FreedHeapWithoutReuseStillRaces) {
  void *P = std::malloc(48);
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(P);
  __weft_race_continue(F);
  __tsan_write8(P);
  __weft_race_exit(F);
  std::free(P);
  EXPECT_EQ(races(), 1u);
}

/// A spawned child's body: a function with a local that it writes, as
/// instrumented code does (its entry and exit reported).
__attribute__((noinline)) void childWithLocal() {
  __tsan_func_entry(__builtin_return_address(0));
  volatile char Local[64];
  __tsan_write8(const_cast<char *>(&Local[8]));
  Local[8] = 1;
  __tsan_func_exit();
}

TEST_F(Race, StackReusedBySiblings) {
  std::uint32_t F = __weft_race_enter();
  for (int I = 0; I < 3; ++I) {
    __weft_race_spawn(F);
    childWithLocal();
    __weft_race_continue(F);
  }
  __weft_race_exit(F);
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, StackVariablePassedByPointer) {
  long Local = 0;
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Local);
  __weft_race_continue(F);
  __tsan_read8(&Local);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u);
}

TEST_F(Race, ReducerViewsAreIgnored) {
  static long Sum;
  __weft_reducer R{};
  R.view_size = sizeof Sum;
  R.view_align = alignof(long);
  R.leftmost = &Sum;
  __weft_race_reducer(&R, 1);
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Sum);
  __weft_race_continue(F);
  __tsan_write8(&Sum);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 0u);
  __weft_race_reducer(&R, 0);
  F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Sum);
  __weft_race_continue(F);
  __tsan_write8(&Sum);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u) << "checked again once unregistered";
}

namespace {
// A reducer whose view owns heap memory: a string, concatenated in order.
void concatenate(void *, void *Left, void *Right) {
  *static_cast<std::string *>(Left) += *static_cast<std::string *>(Right);
}
void emptyString(void *, void *View) { new (View) std::string(); }
void destroyString(void *, void *View) {
  static_cast<std::string *>(View)->~basic_string();
}
/// Appends \p Text to the calling strand's view, a write of its
/// characters as instrumented code would check it.
std::string *append(__weft_reducer *R, const char *Text) {
  auto *View = static_cast<std::string *>(__weft_reducer_lookup(R));
  View->append(Text);
  __weft_race_write_range(&(*View)[0], View->size());
  return View;
}
} // namespace

TEST_F(Race, ContinuationsGetViewsOfTheirOwn) {
  // As if every continuation were stolen: the child goes on with the
  // strand's view, the continuation gets one from the identity, and the
  // sync folds them in serial order. A view's own heap memory is then
  // not shared by parallel strands.
  std::string Text(64, 'x'); // no short-string storage inside the view
  Text.clear();
  __weft_reducer R{&concatenate, &emptyString, &destroyString,
                   sizeof(std::string), alignof(std::string), nullptr};
  __weft_reducer_register(&R, &Text);
  std::uint32_t F = __weft_race_enter();
  EXPECT_EQ(append(&R, "a"), &Text);
  __weft_race_spawn(F);
  EXPECT_EQ(append(&R, "b"), &Text) << "a child goes on with its strand's";
  __weft_race_continue(F);
  std::string *First = append(&R, "c");
  EXPECT_NE(First, &Text) << "a continuation starts a strand";
  __weft_race_spawn(F);
  EXPECT_EQ(append(&R, "d"), First);
  __weft_race_continue(F);
  std::string *Second = append(&R, "e");
  EXPECT_NE(Second, First);
  __weft_race_sync(F);
  EXPECT_EQ(append(&R, "f"), &Text);
  __weft_race_exit(F);
  __weft_reducer_unregister(&R);
  EXPECT_EQ(Text, "abcdef");
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, ViewsFoldAtTheImplicitSync) {
  // A function that ends without a sync of its own folds its strands'
  // views at its end, into the strand of its caller, which is itself a
  // continuation here.
  std::string Text(64, 'x');
  Text.clear();
  __weft_reducer R{&concatenate, &emptyString, &destroyString,
                   sizeof(std::string), alignof(std::string), nullptr};
  __weft_reducer_register(&R, &Text);
  std::uint32_t Outer = __weft_race_enter();
  __weft_race_spawn(Outer);
  append(&R, "1");
  __weft_race_continue(Outer);
  std::uint32_t Inner = __weft_race_enter();
  std::string *Strand = append(&R, "2");
  __weft_race_spawn(Inner);
  append(&R, "3");
  __weft_race_continue(Inner);
  EXPECT_NE(append(&R, "4"), Strand);
  __weft_race_exit(Inner);
  EXPECT_EQ(append(&R, "5"), Strand) << "folded into the caller's strand";
  __weft_race_exit(Outer);
  EXPECT_EQ(append(&R, "6"), &Text);
  __weft_reducer_unregister(&R);
  EXPECT_EQ(Text, "123456");
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, ReducerRegisteredWithTheRuntime) {
  // The path a weft::reducer or a cilk_reducer variable takes: the
  // runtime's registration (views.cpp) tells the race runtime.
  static long Sum;
  __weft_reducer R{};
  R.view_size = sizeof Sum;
  R.view_align = alignof(long);
  __weft_reducer_register(&R, &Sum);
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write8(&Sum);
  __weft_race_continue(F);
  __tsan_read8(&Sum);
  __tsan_write8(&Sum);
  __weft_race_exit(F);
  __weft_reducer_unregister(&R);
  EXPECT_EQ(races(), 0u);
}

TEST_F(Race, ExceptionSkippedHooks) {
  // F spawns a child that runs G, which spawns and throws: neither G's
  // exit nor F's continue run. F's sync closes their records.
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  std::uint32_t G = __weft_race_enter();
  __weft_race_spawn(G);
  __tsan_write8(&Words[4]);
  __weft_race_sync(F);
  __tsan_read8(&Words[4]);
  __weft_race_exit(F);
  EXPECT_EQ(races(), 0u);
  EXPECT_EQ(detector().bags().depth(), 1u);
  (void)G;
}

TEST_F(Race, SamePairOnce) {
  std::uint32_t F = __weft_race_enter();
#pragma GCC unroll 1 // one write site, as written
  for (int I = 0; I < 10; ++I) {
    __weft_race_spawn(F);
    __tsan_write8(&Words[5 + I % 2]);
    __weft_race_continue(F);
  }
  __weft_race_exit(F);
  EXPECT_EQ(races(), 1u);
}

/// A race between two distinct code addresses, for the death tests.
__attribute__((noinline)) void raceOnce() {
  std::uint32_t F = __weft_race_enter();
  __weft_race_spawn(F);
  __tsan_write4(&Words[7]);
  __weft_race_continue(F);
  __tsan_read4(&Words[7]);
  __weft_race_exit(F);
}

TEST_F(Race, ReportAndExitStatus) {
  EXPECT_EXIT(
      {
        raceOnce();
        raceOnce(); // the same pair again
        std::exit(0);
      },
      ::testing::ExitedWithCode(66),
      "weft-race: race on 0x[0-9a-f]+ between a write and a read\n"
      "  write of 4 bytes in .*raceOnce.* at .*race_test.cpp:[0-9]+:[0-9]+\n"
      "    #0 .*raceOnce.*race_test.cpp:[0-9]+:[0-9]+\n"
      "  read of 4 bytes in .*raceOnce.* at .*race_test.cpp:[0-9]+:[0-9]+\n"
      "    #0 .*raceOnce.*\n"
      "weft-race: races found: 1\n$");
}

TEST_F(Race, ExitStatusFromTheEnvironment) {
  EXPECT_EXIT(
      {
        setenv("WEFT_RACE_EXITCODE", "3", 1);
        raceOnce();
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "races found: 1\n$");
}

TEST_F(Race, NoRaceKeepsTheProgramsStatus) {
  EXPECT_EXIT(std::exit(5), ::testing::ExitedWithCode(5),
              "weft-race: races found: 0\n$");
}

TEST_F(Race, ShadowIsMappedOnDemand) {
  static std::uint64_t Big[1 << 16];
  for (auto &W : Big)
    __tsan_write8(&W);
  // 512 KiB touched: its cells fit in one or two second-level tables.
  EXPECT_LE(detector().shadowBytes(), std::size_t(8) << 20);
}

} // namespace
