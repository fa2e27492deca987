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

thread_local Detector::Role Detector::ThreadRole = Detector::Role::Unknown;
bool Detector::Started = false;

namespace {

/// How far below the hook's frame dead stack is cleared at most: a lowest
/// frame farther away than this was on another stack (the thread's own,
/// before main moved to its own stack), not below this one.
constexpr std::uintptr_t kMostDeadStack = std::uintptr_t(1) << 30;

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
}

// The hooks.

std::uint32_t Detector::enter() {
  Bags.enterCalled();
  Records.push_back(HookRecord{false});
  return static_cast<std::uint32_t>(Records.size() - 1);
}

void Detector::spawn(std::uint32_t Record) {
  if (Record >= Records.size())
    return;
  unwindTo(Record);
  Bags.enterSpawned();
  Records.push_back(HookRecord{true});
}

void Detector::resume(std::uint32_t Record, std::uintptr_t Frame) {
  if (Record + 1 >= Records.size())
    return;
  unwindTo(Record + 1);
  closeTop();
  clearDeadStack(Frame);
}

void Detector::sync(std::uint32_t Record) {
  if (Record >= Records.size())
    return;
  unwindTo(Record);
  Bags.sync();
}

void Detector::exit(std::uint32_t Record, std::uintptr_t Frame) {
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

void Detector::access(std::uintptr_t Address, std::size_t Size, bool Write,
                      std::uintptr_t Pc) {
  if (Size == 0)
    return;
  std::uint32_t Me = Bags.current() + 1;
  SiteId Site = TheSites.site(Current, Pc, static_cast<std::uint32_t>(
                                                std::min<std::size_t>(Size, UINT32_MAX)));
  std::uintptr_t End = Address + Size; // one past the last byte
  std::uintptr_t Base = Address & ~(kGranule - 1);
  unsigned First = unsigned(Address - Base);
  for (; Base < End; Base += kGranule, First = 0) {
    unsigned Last = End - Base >= kGranule ? 7 : unsigned(End - Base - 1);
    Cell *C = TheShadow.cell(Base);
    if (!C)
      return;
    checkGranule(*C, bytesMask(First, Last), Write, Base, Me, Site, Size, Pc);
  }
}

void Detector::checkGranule(Cell &C, std::uint8_t Mask, bool Write,
                            std::uintptr_t Base, std::uint32_t Me,
                            SiteId &Site, std::size_t, std::uintptr_t) {
  if (__builtin_expect(C.Write[0].Strand == kIgnoredStrand, false))
    return;
  // A write races with parallel writes and reads of its bytes; a read with
  // parallel writes.
  for (const Record &R : C.Write)
    if (!R.empty() && R.Strand != Me && (R.mask() & Mask) &&
        Bags.parallel(R.Strand - 1))
      report(R, true, Me, Site, Write,
             Base + unsigned(__builtin_ctz(R.mask() & Mask)));
  if (Write)
    for (const Record &R : C.Read)
      if (!R.empty() && R.Strand != Me && (R.mask() & Mask) &&
          Bags.parallel(R.Strand - 1))
        report(R, false, Me, Site, Write,
               Base + unsigned(__builtin_ctz(R.mask() & Mask)));
  if (Write)
    record(C.Write, Me, Site, Mask, /*KeepParallel=*/false);
  else
    record(C.Read, Me, Site, Mask, /*KeepParallel=*/true);
}

/// Records an access of the granule's bytes Mask by procedure Me - 1 in
/// Slots. The access takes those bytes over from every record, except
/// (KeepParallel, for reads) from records of parallel procedures, which
/// keep them: a parallel reader is the one a later write may race with.
void Detector::record(Record (&Slots)[2], std::uint32_t Me, SiteId Site,
                      std::uint8_t Mask, bool KeepParallel) {
  std::uint8_t Mine = Mask;
  for (Record &R : Slots) {
    if (R.empty())
      continue;
    if (KeepParallel && R.Strand != Me && Bags.parallel(R.Strand - 1))
      Mine &= static_cast<std::uint8_t>(~R.mask());
    else
      R.setMask(static_cast<std::uint8_t>(R.mask() & ~Mask));
  }
  if (!Mine)
    return;
  for (Record &R : Slots)
    if (R.empty()) {
      R.set(Me, Site, Mine);
      return;
    }
  // Both slots hold other bytes of the granule. The same procedure's
  // record takes these bytes too (a race on them then names that
  // record's site, one of the same procedure's accesses to the granule).
  for (Record &R : Slots)
    if (R.Strand == Me) {
      R.setMask(R.mask() | Mine);
      return;
    }
  // Two other procedures' records: the one that precedes goes (a later
  // access parallel with it but not with this one is the race lost, see
  // docs/race.md), else the older slot.
  Record &Victim = !Bags.parallel(Slots[1].Strand - 1) ? Slots[1] : Slots[0];
  Victim.set(Me, Site, Mine);
}

void Detector::report(const Record &Earlier, bool EarlierWrite,
                      std::uint32_t, SiteId Site, bool Write,
                      std::uintptr_t Address) {
  std::uintptr_t A = TheSites.siteOf(Earlier.site()).Pc;
  std::uintptr_t B = TheSites.siteOf(Site).Pc;
  // One report per unordered pair of code addresses here; report.cpp
  // merges the pairs that are the same source locations.
  if (!Seen.insert({std::min(A, B), std::max(A, B)}).second)
    return;
  Races.push_back(Race{Earlier.site(), EarlierWrite, Site, Write, Address});
}

} // namespace weft::race
