//===- arena.cpp - Dynamic allocas of slow clones -------------------------===//
//
// A slow clone runs on a thief's stack and leaves it at its next steal
// point, so a VLA or alloca() it executes cannot live there. The IR pass
// (plugin/lower/DynamicAllocas.cpp) turns each into __weft_arena_alloc on an arena
// that the frame owns, and releases the arena when the function completes.
// Fast clones never come here: their allocas stay on their own stack.
//
// The arena is a singly linked list of blocks, one per allocation, owned by
// whichever worker runs the slow clone; a frame has one owner at a time, and
// the handoff between owners (steal, resume at a sync) already orders these
// plain accesses. The slow path runs O(P * T_inf) times, not per spawn, so
// one malloc per allocation is fine here.
//
//===----------------------------------------------------------------------===//

#include "weft/frame_abi.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

struct ArenaBlock {
  ArenaBlock *next;
};

[[noreturn]] void outOfMemory(std::uint64_t Bytes) {
  std::fprintf(stderr,
               "weft: out of memory for a %llu-byte variable-length array or "
               "alloca() in a slow clone\n",
               static_cast<unsigned long long>(Bytes));
  std::abort();
}

} // namespace

extern "C" {

/// Allocates \p Bytes aligned to \p AlignBytes (a power of two), alive until
/// __weft_arena_release(\p Arena).
void *__weft_arena_alloc(void *Arena, std::uint64_t Bytes,
                         std::uint64_t AlignBytes) {
  auto **Head = static_cast<ArenaBlock **>(Arena);
  std::size_t Align = AlignBytes < alignof(std::max_align_t)
                          ? alignof(std::max_align_t)
                          : AlignBytes;
  // The header takes one alignment unit so that the payload keeps the
  // block's alignment.
  std::size_t Header = (sizeof(ArenaBlock) + Align - 1) & ~(Align - 1);
  if (Bytes > SIZE_MAX - Header)
    outOfMemory(Bytes);
  void *Memory = nullptr;
  if (posix_memalign(&Memory, Align, Header + Bytes) != 0)
    outOfMemory(Bytes);
  auto *Block = static_cast<ArenaBlock *>(Memory);
  Block->next = *Head;
  *Head = Block;
  return static_cast<char *>(Memory) + Header;
}

/// Frees every block of \p Arena; the function that owned it has completed.
void __weft_arena_release(void *Arena) {
  auto **Head = static_cast<ArenaBlock **>(Arena);
  for (ArenaBlock *Block = *Head; Block;) {
    ArenaBlock *Next = Block->next;
    std::free(Block);
    Block = Next;
  }
  *Head = nullptr;
}

} // extern "C"
