//===- shadow.h - The race detector's shadow memory -----------------------===//
//
// Every 8-byte granule of the program's memory has a 24-byte shadow cell
// that holds the granule's access history: three records, each a read or a
// write, naming the procedure that made the access (sp_bags.h), the
// access's site (its code address, size and call stack, sites.h) and which
// of the granule's 8 bytes it touched. More than one write record, so that
// the common case of two 4-byte elements of one granule written by two
// logically parallel strands keeps both writers: a granule is exact for
// accesses of 4 bytes and more; finer sharing by more parallel strands
// than there are records keeps what detector.cpp chooses (docs/race.md).
//
// The cells are found through a two-level table: the first level has one
// pointer per MiB of the user address space (47 bits on x86-64, 1 GiB of
// address space for the table, 48 on AArch64; reserved, not committed),
// the second one cell per granule of that MiB
// (3 MiB each, mapped on the first access to the MiB). Both are anonymous
// mappings, so only the pages of cells of touched granules take memory:
// 3 times the program's touched memory, plus the first level's touched
// pages; with the program's own, a run takes at most 4 times its memory
// plus a constant.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_SHADOW_H
#define WEFT_RUNTIME_ANALYSIS_RACE_SHADOW_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::race {

/// One access kept in a cell. Strand is the procedure id plus one, so
/// that zeroed memory is an empty record; Bits holds the site in its upper
/// 23 bits, whether it was a write in bit 8, and the mask of the granule's
/// bytes in the low 8.
struct Record {
  std::uint32_t Strand;
  std::uint32_t Bits;

  bool empty() const { return Strand == 0; }
  std::uint8_t mask() const { return static_cast<std::uint8_t>(Bits); }
  bool write() const { return (Bits >> 8) & 1; }
  std::uint32_t site() const { return Bits >> 9; }
  void set(std::uint32_t S, std::uint32_t Site, bool Write, std::uint8_t Mask) {
    Strand = S;
    Bits = Site << 9 | std::uint32_t(Write) << 8 | Mask;
  }
  /// The record as one word: Strand in the low half, Bits in the high.
  std::uint64_t packed() const {
    return std::uint64_t(Strand) | std::uint64_t(Bits) << 32;
  }
  void setMask(std::uint8_t Mask) {
    if (Mask == 0)
      Strand = Bits = 0;
    else
      Bits = (Bits & ~0xffu) | Mask;
  }
};

inline constexpr unsigned kRecords = 3;

/// A granule's history. Slot[0].Strand == kIgnoredStrand marks a granule
/// whose accesses are not checked (a reducer's view); that record is a
/// write of all 8 bytes, so that every access looks at it.
struct Cell {
  Record Slot[kRecords];
};
static_assert(sizeof(Cell) == 24, "a cell is 3 times its granule");

inline constexpr std::uint32_t kIgnoredStrand = 0xffffffffu;
inline constexpr unsigned kGranuleShift = 3;
inline constexpr std::uintptr_t kGranule = std::uintptr_t(1) << kGranuleShift;

class Shadow {
public:
  /// The cell of the granule that holds Address; maps it if needed. Null
  /// for an address outside the user address space.
  Cell *cell(std::uintptr_t Address) {
    std::uintptr_t Chunk = Address >> kChunkShift;
    if (__builtin_expect(Chunk >= kChunks, false))
      return nullptr;
    Cell *Cells = Table ? Table[Chunk] : nullptr;
    if (__builtin_expect(!Cells, false))
      Cells = mapChunk(Chunk);
    if (!Cells)
      return nullptr;
    return Cells + ((Address & (kChunkBytes - 1)) >> kGranuleShift);
  }

  /// The cell of the granule that holds Address if its MiB is mapped,
  /// else null: memory nothing has accessed yet, which this does not map.
  const Cell *mappedCell(std::uintptr_t Address) const {
    std::uintptr_t Chunk = Address >> kChunkShift;
    if (Chunk >= kChunks || !Table || !Table[Chunk])
      return nullptr;
    return Table[Chunk] + ((Address & (kChunkBytes - 1)) >> kGranuleShift);
  }

  /// The cell of the granule at \p Address (granule-aligned) and, in
  /// \p Run, how many of the next \p Granules granules' cells follow it
  /// contiguously (those of the same MiB); maps them if needed. Null as
  /// cell() is.
  Cell *cells(std::uintptr_t Address, std::size_t Granules, std::size_t &Run) {
    Cell *First = cell(Address);
    std::uintptr_t LeftInChunk =
        (kChunkBytes - (Address & (kChunkBytes - 1))) >> kGranuleShift;
    Run = Granules < LeftInChunk ? Granules : LeftInChunk;
    return First;
  }

  /// Forgets the history of [Begin, End): memory that died (freed heap,
  /// popped stack). Granules partly inside lose their whole history.
  void clear(std::uintptr_t Begin, std::uintptr_t End);
  /// Marks [Begin, End) as not checked, or (Ignore false) as fresh again.
  void ignore(std::uintptr_t Begin, std::uintptr_t End, bool Ignore);
  /// Unmaps every cell: a fresh detector (tests).
  void reset();
  /// Bytes of cells mapped so far (their committed part is what the
  /// program touched).
  std::size_t mappedBytes() const { return Mapped; }

private:
  /// The user address space Linux gives a process: 47 bits on x86-64 (four
  /// page-table levels), 48 on AArch64 with its usual 4 KiB pages and four
  /// levels (a larger space is given only to a mapping that asks for an
  /// address above it, which the program does not).
#if defined(__aarch64__)
  static constexpr unsigned kUserAddressBits = 48;
#else
  static constexpr unsigned kUserAddressBits = 47;
#endif
  static constexpr unsigned kChunkShift = 20;
  static constexpr std::uintptr_t kChunkBytes = std::uintptr_t(1) << kChunkShift;
  static constexpr std::uintptr_t kChunks =
      std::uintptr_t(1) << (kUserAddressBits - kChunkShift);
  static constexpr std::size_t kCellsBytes =
      (kChunkBytes >> kGranuleShift) * sizeof(Cell);

  Cell *mapChunk(std::uintptr_t Chunk);
  /// Calls F(first cell, cell count) for every mapped run of cells of
  /// [Begin, End) (granule-rounded outward).
  template <class Fn> void forCells(std::uintptr_t Begin, std::uintptr_t End, Fn F);

  Cell **Table = nullptr;
  std::size_t Mapped = 0;
  std::vector<std::uint32_t> Chunks; // the mapped ones, for reset()
};

} // namespace weft::race

#endif // WEFT_RUNTIME_ANALYSIS_RACE_SHADOW_H
