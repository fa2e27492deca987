//===- detector.cpp - The determinacy-race detector's checks --------------===//
//
// The access check and record of detector.h, and the hooks' bookkeeping:
//
//   __weft_race_enter     enterCalled()   a spawning function's instance
//   __weft_race_spawn     enterSpawned()  until the matching continue
//   __weft_race_continue  leave()         the child returned
//   __weft_race_sync      sync()
//   __weft_race_exit      sync(); leave() its implicit sync, its return
//
// As in workspan mode, an exception that leaves a function skips its exit
// hook (or its parent's continue): every hook names its procedure's
// record, and the records above it are closed first, as if they had
// returned.
//
// At continue and exit, everything below the hook's frame on the stack is
// dead: the returned child's frames, which a sibling spawned next will
// reuse, logically in parallel. Their history is cleared from the lowest
// frame any function entered since the last clear up to the hook's frame.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"

#include <algorithm>
#include <atomic>

namespace weft::race {

bool Detector::Started = false;

namespace {

/// How far below the hook's frame dead stack is cleared at most: a lowest
/// frame farther away than this was on another stack (main runs on a
/// stack of its own, and a static constructor's spawns on the thread's),
/// and what lies between two stacks is other memory. Between two hooks a
/// strand uses less stack than this.
constexpr std::uintptr_t kMostDeadStack = std::uintptr_t(256) << 20;

/// The bytes of a granule an access touches, given its first and last
/// byte's offsets in the granule.
std::uint8_t bytesMask(unsigned First, unsigned Last) {
  return static_cast<std::uint8_t>((0xffu >> (7 - Last)) & (0xffu << First));
}

} // namespace

Detector::Detector() {
  Records.reserve(256);
  Records.push_back(HookRecord{false});
  Stack.reserve(256);
  Started = true;
}

bool Detector::claim() {
  // Serial use is the model; this only tells a second thread apart.
  static std::atomic<bool> Claimed{false};
  if (!Started)
    return false;
  bool Expected = false;
  // Relaxed is enough: the flag elects one thread and orders nothing.
  if (ThreadRole == Role::Unknown)
    ThreadRole = Claimed.compare_exchange_strong(Expected, true,
                                                 std::memory_order_relaxed)
                     ? Role::Owner
                     : Role::Other;
  return ThreadRole == Role::Owner;
}

void Detector::freed(std::uintptr_t Begin, std::uintptr_t End,
                     std::uintptr_t Pc, Release How) {
  if (End > Begin && owns()) {
    // Every access recorded on the block's bytes by a procedure logically
    // parallel with this one races with the free, as a write's would.
    // Nothing here allocates: not Bags.current(), which may make the
    // procedure's node (one that has none has recorded nothing), nor the
    // report, which waits for the next hook (settleFrees()). The bags'
    // find only compresses paths in place.
    ProcedureId Self = Bags.currentIfNamed();
    std::uint32_t Me = Self == kNoProcedure ? 0 : Self + 1;
    auto Size = static_cast<std::uint32_t>(
        End - Begin < UINT32_MAX ? End - Begin : UINT32_MAX);
    for (std::uintptr_t G = Begin & ~(kGranule - 1); G < End; G += kGranule) {
      const Cell *C = TheShadow.mappedCell(G);
      if (!C)
        continue;
      std::uint8_t Mask = 0xff;
      if (G < Begin)
        Mask &= static_cast<std::uint8_t>(0xff << (Begin - G));
      if (End - G < kGranule)
        Mask &= static_cast<std::uint8_t>(0xff >> (kGranule - (End - G)));
      for (const Record &R : C->Slot) {
        if (R.empty() || R.Strand == kIgnoredStrand || R.Strand == Me ||
            !(R.mask() & Mask) || !parallel(R.Strand))
          continue;
        bool Known = false;
        for (unsigned I = 0; I < FreeRaceCount && !Known; ++I)
          Known = FreeRaces[I].Strand == R.Strand &&
                  FreeRaces[I].EarlierSite == R.site() && FreeRaces[I].Pc == Pc;
        if (!Known && FreeRaceCount < kFreeRaces)
          FreeRaces[FreeRaceCount++] =
              FreeRace{R.Strand, R.site(), R.write(), Current, Pc, Size,
                       TheLocks.held(),
                       G + unsigned(__builtin_ctz(R.mask() & Mask)), How};
      }
    }
  }
  forget(Begin, End); // also a new epoch: no answer kept from the scan
}

void Detector::flushFreeRaces() {
  // The frees' candidates, copied: what the reports allocate may free and
  // add more.
  unsigned Count = FreeRaceCount;
  FreeRace Pending[kFreeRaces];
  std::copy(FreeRaces, FreeRaces + Count, Pending);
  FreeRaceCount = 0;
  for (unsigned I = 0; I < Count; ++I) {
    const FreeRace &F = Pending[I];
    ReleaseSites.emplace(F.Pc, F.How);
    Record Earlier;
    Earlier.set(1, F.EarlierSite, F.EarlierWrite, 0xff);
    report(Earlier, F.EarlierWrite, 0,
           TheSites.site(F.Stack, F.Pc, F.Size, F.Locks),
           /*Write=*/true, F.Address);
  }
}

void Detector::reset() {
  Bags = SpBags();
  TheShadow.reset();
  TheSites.reset();
  Records.clear();
  Records.push_back(HookRecord{false});
  Current = kRootStack;
  Stack.clear();
  LowestFrame = UINTPTR_MAX;
  Races.clear();
  Seen.clear();
  LastPair = {};
  ReleaseSites.clear();
  FreeRaceCount = 0;
  TheLocks.reset();
  newEpoch();
}

// The hooks.

std::uint32_t Detector::enter() {
  newEpoch();
  settleFrees();
  Bags.enterCalled();
  Records.push_back(HookRecord{false});
  return static_cast<std::uint32_t>(Records.size() - 1);
}

void Detector::spawn(std::uint32_t Record) {
  newEpoch();
  settleFrees();
  if (Record >= Records.size())
    return;
  unwindTo(Record);
  Bags.enterSpawned();
  Records.push_back(HookRecord{true});
}

void Detector::resume(std::uint32_t Record, std::uintptr_t Frame) {
  newEpoch();
  settleFrees();
  if (Record + 1 >= Records.size())
    return;
  unwindTo(Record + 1);
  closeTop();
  clearDeadStack(Frame);
}

void Detector::sync(std::uint32_t Record) {
  newEpoch();
  settleFrees();
  if (Record >= Records.size())
    return;
  unwindTo(Record);
  Bags.sync();
}

void Detector::exit(std::uint32_t Record, std::uintptr_t Frame) {
  newEpoch();
  settleFrees();
  if (Record == 0 || Record >= Records.size())
    return;
  unwindTo(Record);
  closeTop();
  clearDeadStack(Frame);
}

void Detector::unwindTo(std::uint32_t Record) {
  while (__builtin_expect(Records.size() > std::size_t(Record) + 1, false))
    closeTop();
}

/// Ends the top procedure: leave() syncs first, so a function's implicit
/// sync and a child's end are the same call.
void Detector::closeTop() {
  Records.pop_back();
  Bags.leave();
}

void Detector::clearDeadStack(std::uintptr_t Frame) {
  if (LowestFrame < Frame && Frame - LowestFrame < kMostDeadStack)
    TheShadow.clear(LowestFrame, Frame);
  LowestFrame = Frame;
}

// The accesses.

void Detector::accessRange(std::uintptr_t Address, std::size_t Size,
                           bool Write, std::uintptr_t Pc) {
  if (Size == 0)
    return;
  std::uintptr_t End = Address + Size; // one past the last byte
  // A range of one or two pages that repeats, unchanged, is dropped whole.
  RangeFilterEntry *Kept = nullptr;
  if (((End - 1) >> kPageShift) - (Address >> kPageShift) <= 1) {
    Kept = &rangeFilterSlot(Address, Pc);
    if (rangeFiltered(*Kept, Address, Size, Write, Pc))
      return;
  }
  checkRange(Address, End, Write, Pc);
  if (Kept)
    *Kept = RangeFilterEntry{Address, Pc,    Size,
                             Current, Epoch, versionOf(Address),
                             versionOf(End - 1), Write};
}

void Detector::checkRange(std::uintptr_t Address, std::uintptr_t End,
                          bool Write, std::uintptr_t Pc) {
  auto Size32 = static_cast<std::uint32_t>(
      std::min<std::uintptr_t>(End - Address, UINT32_MAX));
  std::uintptr_t Base = Address & ~(kGranule - 1);
  // A first granule the range starts inside of, and a last one it ends
  // inside of, as one-granule accesses; the whole granules between them
  // by runs of cells.
  if (Base != Address) {
    unsigned Last = End - Base >= kGranule ? 7 : unsigned(End - Base - 1);
    granule(Base >> kGranuleShift, bytesMask(unsigned(Address - Base), Last),
            Write, Pc, Size32);
    Base += kGranule;
  }
  std::uintptr_t WholeEnd = End & ~(kGranule - 1);
  if (Base < WholeEnd) {
    RangeCheck Range{Bags.current() + 1,
                     TheSites.site(Current, Pc, Size32, TheLocks.held()),
                     Pc, Size32, Write};
    while (Base < WholeEnd) {
      std::size_t Granules = 0;
      Cell *C = TheShadow.cells(Base, (WholeEnd - Base) >> kGranuleShift,
                                Granules);
      if (!C)
        return;
      wholeGranules(C, Granules, Base >> kGranuleShift, Range);
      Base += Granules << kGranuleShift;
    }
  }
  if (Base < End)
    granule(Base >> kGranuleShift, bytesMask(0, unsigned(End - Base - 1)),
            Write, Pc, Size32);
}

/// Whether a read of all of a granule's bytes by procedure \p Me (its id
/// plus one) finds no race and changes nothing (record()'s rules): every
/// write there is Me's or serially before Me, every read is by a
/// procedure logically parallel with Me, which Feng and Leiserson's rule
/// keeps over a later reader, and together Me's writes and those reads
/// cover the 8 bytes, on which a read is not recorded.
inline bool Detector::readChangesNothing(const Cell &C, std::uint32_t Me) {
  std::uint8_t Covered = 0;
  for (const Record &R : C.Slot) {
    if (R.empty())
      continue;
    if (R.Strand == kIgnoredStrand)
      return false;
    if (R.write()) {
      if (R.Strand == Me)
        Covered |= R.mask();
      else if (parallel(R.Strand))
        return false;
    } else if (R.Strand == Me || !parallel(R.Strand)) {
      return false;
    } else {
      Covered |= R.mask();
    }
  }
  return Covered == 0xff;
}

/// The usual whole granule of a range is one whose records already say
/// what checking it would leave: only this procedure's record of this
/// kind and site on all 8 bytes, or, for a read, only this procedure's
/// write of all 8 bytes; or, for a read, only parallel procedures' reads
/// (readChangesNothing()). Nothing can race there and nothing changes, so
/// neither the check nor the filter is needed. The next most usual is the
/// same range checked again with no hook in between, among other
/// procedures' records (a row of a matrix that parallel procedures read):
/// the filter drops it, as it drops a repeated one-granule access. The
/// rest are checked in full, and their filter entries become this
/// access's.
void Detector::wholeGranules(Cell *Cells, std::size_t Count,
                             std::uintptr_t FirstGranule,
                             const RangeCheck &Range) {
  Record Same;
  Same.set(Range.Me, Range.Site, Range.Write, 0xff);
  const std::uint64_t Unchanged = Same.packed();
  constexpr std::uint64_t KindAndMask = std::uint64_t(0x1ff) << 32;
  const std::uint64_t OwnWrite = Range.Me | KindAndMask;
  for (std::size_t I = 0; I < Count; ++I) {
    const Cell &C = Cells[I];
    std::uint64_t First = C.Slot[0].packed();
    bool Alone = (C.Slot[1].packed() | C.Slot[2].packed()) == 0;
    if (__builtin_expect(Alone, true) &&
        (First == Unchanged ||
         (!Range.Write && (First & (0xffffffffu | KindAndMask)) == OwnWrite)))
      continue;
    if (!Range.Write && readChangesNothing(C, Range.Me))
      continue;
    std::uintptr_t Granule = FirstGranule + I;
    if (filtered(filterSlot(Granule), Granule, 0xff, Range.Write, Range.Pc,
                 Range.Size))
      continue;
    checkInFull(Cells[I], Granule, 0xff, Range.Write, Range.Pc, Range.Size,
                Range.Me, Range.Site);
  }
}

/// The checks of a granule that holds other procedures' records: a write
/// races with parallel writes and reads of its bytes, a read with parallel
/// writes.
void Detector::checkForeign(Cell &C, std::uint8_t Mask, bool Write,
                            std::uintptr_t Base, std::uint32_t Me,
                            SiteId Site) {
  for (const Record &R : C.Slot)
    if (!R.empty() && R.Strand != Me && (R.mask() & Mask) &&
        (Write || R.write()) && parallel(R.Strand))
      report(R, R.write(), Me, Site, Write,
             Base + unsigned(__builtin_ctz(R.mask() & Mask)));
}

/// Records an access of the granule's bytes Mask by procedure Me - 1, by
/// the rules of Feng and Leiserson, byte-wise:
///
///  - A write takes its bytes over from every write record, and from the
///    read records of its own procedure and of procedures that precede it
///    (a later write parallel with such a read is parallel with this write
///    too, and races with it). Reads of parallel procedures keep them.
///  - A read takes its bytes over from the read records of its procedure
///    and of procedures that precede it; parallel reads keep theirs, and
///    this read is not recorded on them. Nor on bytes its own procedure
///    wrote: a later write that would race with the read races with that
///    write.
///
/// When no record is free, a write takes the slot of a record that
/// precedes it, else a read's, else the oldest; a read takes the slot of
/// one that precedes it, else is not recorded (a parallel reader is kept,
/// as in sp_bags.h). docs/race.md says what that loses.
void Detector::record(Cell &C, std::uint32_t Me, SiteId Site, bool Write,
                      std::uint8_t Mask) {
  // The usual case: the granule holds this procedure's one record of the
  // kind, or nothing.
  Record &First = C.Slot[0];
  if (C.Slot[1].empty() && C.Slot[2].empty() &&
      (First.empty() ||
       (First.Strand == Me && First.write() == Write &&
        (First.site() == Site || (First.mask() & ~Mask) == 0)))) {
    std::uint8_t Kept = First.empty() || First.site() != Site ? 0 : First.mask();
    First.set(Me, Site, Write, static_cast<std::uint8_t>(Kept | Mask));
    return;
  }
  Record *Mine = nullptr; // this procedure's record of the same kind
  std::uint8_t Bytes = Mask;
  for (Record &R : C.Slot) {
    if (R.empty())
      continue;
    bool Own = R.Strand == Me;
    if (Own && R.write() == Write && !Mine)
      Mine = &R;
    if (R.write()) {
      if (Write)
        R.setMask(static_cast<std::uint8_t>(R.mask() & ~Mask));
      else if (Own)
        Bytes &= static_cast<std::uint8_t>(~R.mask());
    } else if (Own || !parallel(R.Strand)) {
      R.setMask(static_cast<std::uint8_t>(R.mask() & ~Mask));
    } else if (!Write) {
      Bytes &= static_cast<std::uint8_t>(~R.mask());
    }
  }
  if (!Bytes)
    return;
  // The procedure's own record of the kind takes the bytes if it is the
  // same site; else a free slot does, else that record all the same (a
  // race on these bytes then names another of its accesses here).
  if (Mine && !Mine->empty() && Mine->site() == Site) {
    Mine->setMask(static_cast<std::uint8_t>(Mine->mask() | Bytes));
    return;
  }
  for (Record &R : C.Slot)
    if (R.empty()) {
      R.set(Me, Site, Write, Bytes);
      return;
    }
  if (Mine && !Mine->empty()) {
    Mine->setMask(static_cast<std::uint8_t>(Mine->mask() | Bytes));
    return;
  }
  Record *Victim = nullptr;
  for (Record &R : C.Slot)
    if (!parallel(R.Strand)) {
      Victim = &R;
      break;
    }
  if (!Victim && !Write)
    return;
  if (!Victim)
    for (Record &R : C.Slot)
      if (!R.write()) {
        Victim = &R;
        break;
      }
  if (!Victim)
    Victim = &C.Slot[0];
  Victim->set(Me, Site, Write, Bytes);
}

void Detector::report(const Record &Earlier, bool EarlierWrite,
                      std::uint32_t, SiteId Site, bool Write,
                      std::uintptr_t Address) {
  const race::Site &First = TheSites.siteOf(Earlier.site());
  const race::Site &Second = TheSites.siteOf(Site);
  // Both held a common lock: ordered, whichever came first.
  if (TheLocks.meet(First.Locks, Second.Locks))
    return;
  std::uintptr_t A = First.Pc;
  std::uintptr_t B = Second.Pc;
  // One report per unordered pair of code addresses here; report.cpp
  // merges the pairs that are the same source locations. A racy loop
  // repeats its pair: checked first without the set.
  std::pair<std::uintptr_t, std::uintptr_t> Pair{std::min(A, B), std::max(A, B)};
  if (Pair == LastPair || !Seen.insert(Pair).second) {
    LastPair = Pair;
    return;
  }
  LastPair = Pair;
  Races.push_back(Race{Earlier.site(), EarlierWrite, Site, Write, Address});
}

} // namespace weft::race
