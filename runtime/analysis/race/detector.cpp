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
  newEpoch();
}

// The hooks.

std::uint32_t Detector::enter() {
  newEpoch();
  Bags.enterCalled();
  Records.push_back(HookRecord{false});
  return static_cast<std::uint32_t>(Records.size() - 1);
}

void Detector::spawn(std::uint32_t Record) {
  newEpoch();
  if (Record >= Records.size())
    return;
  unwindTo(Record);
  Bags.enterSpawned();
  Records.push_back(HookRecord{true});
}

void Detector::resume(std::uint32_t Record, std::uintptr_t Frame) {
  newEpoch();
  if (Record + 1 >= Records.size())
    return;
  unwindTo(Record + 1);
  closeTop();
  clearDeadStack(Frame);
}

void Detector::sync(std::uint32_t Record) {
  newEpoch();
  if (Record >= Records.size())
    return;
  unwindTo(Record);
  Bags.sync();
}

void Detector::exit(std::uint32_t Record, std::uintptr_t Frame) {
  newEpoch();
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
  // Granule by granule through the filter, as a one-granule access: a
  // vectorized loop's 16-byte accesses repeat as its 8-byte ones would.
  auto Size32 = static_cast<std::uint32_t>(std::min<std::size_t>(Size, UINT32_MAX));
  std::uint32_t Me = Bags.current() + 1;
  SiteId Site = 0;
  bool HaveSite = false;
  std::uintptr_t End = Address + Size; // one past the last byte
  std::uintptr_t Base = Address & ~(kGranule - 1);
  unsigned First = unsigned(Address - Base);
  for (; Base < End; Base += kGranule, First = 0) {
    unsigned Last = End - Base >= kGranule ? 7 : unsigned(End - Base - 1);
    std::uint8_t Mask = bytesMask(First, Last);
    std::uintptr_t Granule = Base >> kGranuleShift;
    FilterEntry &E = filterSlot(Granule);
    if (filtered(E, Granule, Mask, Write, Pc, Size32))
      continue;
    Cell *C = TheShadow.cell(Base);
    if (!C)
      return;
    if (!HaveSite) {
      Site = TheSites.site(Current, Pc, Size32);
      HaveSite = true;
    }
    checkGranule(*C, Mask, Write, Base, Me, Site);
    E = FilterEntry{Granule, Pc, Current, Epoch, Size32, Mask, Write};
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
  std::uintptr_t A = TheSites.siteOf(Earlier.site()).Pc;
  std::uintptr_t B = TheSites.siteOf(Site).Pc;
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
