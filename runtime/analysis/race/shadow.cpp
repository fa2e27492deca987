//===- shadow.cpp - The race detector's shadow memory ---------------------===//
//
// The mappings behind shadow.h's table, and the clearing of dead memory's
// history. Large clears give whole pages back to the kernel instead of
// writing zeros over them, so that freeing a big block costs no more
// shadow memory than it had.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/shadow.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft::race {

namespace {

void *reserve(std::size_t Bytes) {
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED) {
    std::fprintf(stderr, "weft-race: cannot map %zu bytes of shadow memory\n",
                 Bytes);
    std::abort();
  }
  return P;
}

constexpr std::uintptr_t kPage = 4096;

} // namespace

Cell *Shadow::mapChunk(std::uintptr_t Chunk) {
  if (!Table)
    Table = static_cast<Cell **>(reserve(kChunks * sizeof(Cell *)));
  Cell *Cells = static_cast<Cell *>(reserve(kCellsBytes));
  Mapped += kCellsBytes;
  Chunks.push_back(static_cast<std::uint32_t>(Chunk));
  Table[Chunk] = Cells;
  return Cells;
}

template <class Fn>
void Shadow::forCells(std::uintptr_t Begin, std::uintptr_t End, Fn F) {
  if (!Table || Begin >= End)
    return;
  Begin &= ~(kGranule - 1);
  if (End > (kChunks << kChunkShift))
    End = kChunks << kChunkShift;
  while (Begin < End) {
    std::uintptr_t Chunk = Begin >> kChunkShift;
    std::uintptr_t ChunkEnd = (Chunk + 1) << kChunkShift;
    std::uintptr_t Stop = End < ChunkEnd ? End : ChunkEnd;
    if (Cell *Cells = Table[Chunk]) {
      std::uintptr_t First = (Begin & (kChunkBytes - 1)) >> kGranuleShift;
      std::uintptr_t Last =
          ((Stop - 1) & (kChunkBytes - 1)) >> kGranuleShift; // inclusive
      F(Cells + First, Last - First + 1);
    }
    Begin = Stop;
  }
}

void Shadow::clear(std::uintptr_t Begin, std::uintptr_t End) {
  forCells(Begin, End, [](Cell *First, std::size_t Count) {
    auto Lo = reinterpret_cast<std::uintptr_t>(First);
    auto Hi = reinterpret_cast<std::uintptr_t>(First + Count);
    std::uintptr_t PageLo = (Lo + kPage - 1) & ~(kPage - 1);
    std::uintptr_t PageHi = Hi & ~(kPage - 1);
    // Whole pages go back to the kernel (they read as zeros, empty cells);
    // only worth a system call for a few of them.
    if (PageHi > PageLo + 4 * kPage) {
      std::memset(First, 0, PageLo - Lo);
      madvise(reinterpret_cast<void *>(PageLo), PageHi - PageLo, MADV_DONTNEED);
      std::memset(reinterpret_cast<void *>(PageHi), 0, Hi - PageHi);
    } else {
      std::memset(First, 0, Count * sizeof(Cell));
    }
  });
}

void Shadow::ignore(std::uintptr_t Begin, std::uintptr_t End, bool Ignore) {
  if (!Ignore) {
    clear(Begin, End);
    return;
  }
  // Mark every granule, mapping the cells as needed.
  for (std::uintptr_t A = Begin & ~(kGranule - 1); A < End; A += kGranule)
    if (Cell *C = cell(A)) {
      std::memset(C, 0, sizeof(Cell));
      C->Slot[0].set(kIgnoredStrand, 0, /*Write=*/true, 0xff);
    }
}

void Shadow::reset() {
  if (!Table)
    return;
  for (std::uint32_t Chunk : Chunks) {
    munmap(Table[Chunk], kCellsBytes);
    Table[Chunk] = nullptr;
  }
  Chunks.clear();
  Mapped = 0;
  // The first level is all null again; give its pages back too.
  madvise(Table, kChunks * sizeof(Cell *), MADV_DONTNEED);
}

} // namespace weft::race
