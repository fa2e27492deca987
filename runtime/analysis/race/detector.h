//===- detector.h - The determinacy-race detector's state -----------------===//
//
// The detector is one object: the SP-bags of the serial run (sp_bags.h),
// the shadow memory (shadow.h), the interned call stacks and sites
// (sites.h), the records of the Weft hooks (which say where procedures
// begin and end), and the races found so far. The run is serial, so the
// object is not locked: only the thread that first used it checks
// accesses (Detector::owns()); a program's own threads, which the
// series-parallel model does not describe, are not checked.
//
// An access of [Address, Address + Size) is checked and recorded granule by
// granule (shadow.h): against the granule's write records for a read, and
// against all its records for a write; a record whose bytes overlap the
// access's and whose procedure is logically parallel with the current one
// is a race. Then the access is recorded by the rules of Feng and
// Leiserson (sp_bags.h), byte-wise (detector.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_DETECTOR_H
#define WEFT_RUNTIME_ANALYSIS_RACE_DETECTOR_H

#include "analysis/race/locks.h"
#include "analysis/race/shadow.h"
#include "analysis/race/sites.h"
#include "analysis/sp_bags.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace weft::race {

/// One race found: the earlier access (from a shadow record) and the
/// current one.
struct Race {
  SiteId Earlier;
  bool EarlierWrite;
  SiteId Later;
  bool LaterWrite;
  std::uintptr_t Address; // the first byte both touched
};

class Detector {
public:
  Detector();

  /// Whether the calling thread is the one the detector follows (the
  /// first that asked) and checks its accesses: not while checking is
  /// off (<cilk/cilksan.h>'s __cilksan_disable_checking()).
  static bool owns() {
    if (__builtin_expect(ThreadRole == Role::Owner, true))
      return true;
    return claim();
  }
  /// Whether the calling thread is the followed one, checking or not:
  /// its procedures, call stack and memory's lifetimes are followed
  /// either way.
  static bool follows() {
    if (__builtin_expect(ThreadRole == Role::Owner || ThreadRole == Role::Paused,
                         true))
      return true;
    return claim();
  }
  /// A lock taken and released by the followed thread (cilksan_api.cpp,
  /// locks_api.cpp): accesses made while two strands hold a common lock do
  /// not race. A lock changes what the filters assume, as a hook does.
  void acquire(std::uintptr_t Lock) {
    TheLocks.acquire(Lock);
    newEpoch();
  }
  void release(std::uintptr_t Lock) {
    TheLocks.release(Lock);
    newEpoch();
  }

  /// Turns checking off (nested) and on again, on the followed thread
  /// (cilksan_api.cpp); whether it is on.
  static void disableChecking();
  static void enableChecking();
  static bool checkingEnabled() { return ThreadRole != Role::Paused; }

  // The Weft hooks (hooks.cpp). Each names its procedure's record; those
  // above it, left by an exception, are closed first. Frame is the
  // hook's own frame address: the stack below it is dead at continue and
  // exit.
  std::uint32_t enter();
  void spawn(std::uint32_t Record);
  void resume(std::uint32_t Record, std::uintptr_t Frame);
  void sync(std::uint32_t Record);
  void exit(std::uint32_t Record, std::uintptr_t Frame);

  // The instrumentation (tsan_entries.cpp).
  void funcEntry(std::uintptr_t ReturnPc, std::uintptr_t Frame) {
    Stack.push_back(Current);
    Current = TheSites.child(Current, ReturnPc);
    if (Frame < LowestFrame)
      LowestFrame = Frame;
  }
  /// \p Frame is the exit hook's own frame: below whatever the function
  /// allocated since its entry (alloca(), VLAs), which is dead from here on.
  void funcExit(std::uintptr_t Frame) {
    if (Frame < LowestFrame)
      LowestFrame = Frame;
    if (__builtin_expect(!Stack.empty(), true)) {
      Current = Stack.back();
      Stack.pop_back();
    }
  }
  /// A C library function the runtime checks (stdio_api.cpp) may write
  /// the stack of its uninstrumented callers (libstdc++'s number
  /// formatting sprintf's into its own frame's buffer), below every frame
  /// funcEntry saw: down to \p Frame, the checking function's own, the
  /// stack is dead at the next hook as well.
  void libraryFrame(std::uintptr_t Frame) {
    if (Frame < LowestFrame)
      LowestFrame = Frame;
  }
  /// Checks and records an access; the common one, inside one granule,
  /// without a loop, and not at all when the filter says it changes
  /// nothing (filtered()).
  void access(std::uintptr_t Address, std::size_t Size, bool Write,
              std::uintptr_t Pc) {
    unsigned Offset = unsigned(Address & (kGranule - 1));
    if (__builtin_expect(Size - 1 < kGranule - Offset, true)) {
      granule(Address >> kGranuleShift,
              static_cast<std::uint8_t>(((2u << (Size - 1)) - 1) << Offset),
              Write, Pc, std::uint32_t(Size));
      return;
    }
    // A vectorized loop's 16 bytes, aligned: two whole granules.
    if (Size == 2 * kGranule && Offset == 0) {
      std::uintptr_t Granule = Address >> kGranuleShift;
      if (__builtin_expect(
              !filtered(filterSlot(Granule), Granule, 0xff, Write, Pc,
                        2 * kGranule) ||
                  !filtered(filterSlot(Granule + 1), Granule + 1, 0xff, Write,
                            Pc, 2 * kGranule),
              false))
        pairChecked(Granule, Write, Pc);
      return;
    }
    accessRange(Address, Size, Write, Pc);
  }
  /// One granule's part (Mask) of an access of Size bytes.
  __attribute__((always_inline)) void granule(std::uintptr_t Granule,
                                              std::uint8_t Mask, bool Write,
                                              std::uintptr_t Pc,
                                              std::uint32_t Size) {
    FilterEntry &E = filterSlot(Granule);
    if (__builtin_expect(!filtered(E, Granule, Mask, Write, Pc, Size), false))
      granuleChecked(Granule, Mask, Write, Pc, Size);
  }
  /// An aligned 16-byte access one of whose granules the filter let
  /// through.
  __attribute__((noinline)) void pairChecked(std::uintptr_t Granule,
                                             bool Write, std::uintptr_t Pc) {
    granule(Granule, 0xff, Write, Pc, 2 * kGranule);
    granule(Granule + 1, 0xff, Write, Pc, 2 * kGranule);
  }
  /// The check of a granule the filter let through.
  __attribute__((always_inline)) void granuleChecked(std::uintptr_t Granule,
                                                std::uint8_t Mask, bool Write,
                                                std::uintptr_t Pc,
                                                std::uint32_t Size) {
    Cell *C = TheShadow.cell(Granule << kGranuleShift);
    if (!C)
      return;
    checkInFull(*C, Granule, Mask, Write, Pc, Size, Bags.current() + 1,
                TheSites.site(Current, Pc, Size, TheLocks.held()));
  }
  /// Checks and records a granule's part of an access, which may change
  /// its records: its page's version moves on, and its filter entry
  /// becomes this access's.
  __attribute__((always_inline)) void
  checkInFull(Cell &C, std::uintptr_t Granule, std::uint8_t Mask, bool Write,
              std::uintptr_t Pc, std::uint32_t Size, std::uint32_t Me,
              SiteId Site) {
    std::uintptr_t Base = Granule << kGranuleShift;
    checkGranule(C, Mask, Write, Base, Me, Site);
    touched(Base);
    filterSlot(Granule) = FilterEntry{Granule, Pc, Current, Epoch, Size, Mask,
                                      Write};
  }

  /// Memory that died (freed heap): its history goes.
  void forget(std::uintptr_t Begin, std::uintptr_t End) {
    TheShadow.clear(Begin, End);
    newEpoch();
  }
  /// How memory stops being the program's: freed heap, or stack whose
  /// scope the code left (a VLA, an alloca() block, a local).
  enum class Release : unsigned char { Free, ScopeEnd };
  /// Memory released by the code at \p Pc: the release is an access that
  /// races with any logically parallel access to the bytes (a child still
  /// reading what the continuation frees, or writing a VLA of a loop body
  /// that the continuation leaves), checked as a write while checking is
  /// on; then their history goes. A free may come from inside the
  /// detector's own work (a container of its own growing), so this
  /// allocates nothing and changes no container: the races it finds wait,
  /// in a fixed array, until the next hook or the report
  /// (flushFreeRaces()).
  void freed(std::uintptr_t Begin, std::uintptr_t End, std::uintptr_t Pc,
             Release How = Release::Free);
  /// What the code at \p Pc released memory by, if it raced doing so
  /// (report.cpp names the access so).
  std::optional<Release> releaseAt(std::uintptr_t Pc) const {
    auto It = ReleaseSites.find(Pc);
    if (It == ReleaseSites.end())
      return std::nullopt;
    return It->second;
  }
  /// Reports the frees' races, found by freed(), at the first hook after
  /// the free or at the report.
  void flushFreeRaces();
  void settleFrees() {
    if (__builtin_expect(FreeRaceCount != 0, false))
      flushFreeRaces();
  }
  /// A reducer's view: not checked while the reducer lives.
  void ignore(std::uintptr_t Begin, std::uintptr_t End, bool Ignore) {
    TheShadow.ignore(Begin, End, Ignore);
    newEpoch();
  }

  const std::vector<Race> &races() const { return Races; }
  const Sites &sites() const { return TheSites; }
  std::size_t shadowBytes() const { return TheShadow.mappedBytes(); }
  SpBags &bags() { return Bags; }

  /// A fresh detector (tests): no history, no races, the outermost
  /// procedure running.
  void reset();

private:
  // Paused: the followed thread, its accesses unchecked for now.
  enum class Role : unsigned char { Unknown, Owner, Paused, Other };
  static inline thread_local unsigned DisabledDepth = 0;
  // Defined here, constant-initialized: the entries read it without a call
  // to a thread_local wrapper.
  static inline thread_local Role ThreadRole = Role::Unknown;
  static bool claim();
  /// Set once the detector is constructed: code that runs before (another
  /// library's constructors) is not checked.
  static bool Started;

  struct HookRecord {
    bool Spawned;
  };
  void unwindTo(std::uint32_t Record);
  void closeTop();
  void clearDeadStack(std::uintptr_t Frame);

  void accessRange(std::uintptr_t Address, std::size_t Size, bool Write,
                   std::uintptr_t Pc);
  void checkRange(std::uintptr_t Address, std::uintptr_t End, bool Write,
                  std::uintptr_t Pc);
  /// What a range's whole granules are checked as: one site and procedure.
  struct RangeCheck {
    std::uint32_t Me;
    SiteId Site;
    std::uintptr_t Pc;
    std::uint32_t Size;
    bool Write;
  };
  __attribute__((always_inline)) bool readChangesNothing(const Cell &C,
                                                         std::uint32_t Me);
  void wholeGranules(Cell *Cells, std::size_t Count,
                     std::uintptr_t FirstGranule, const RangeCheck &Range);
  __attribute__((always_inline)) void
  checkGranule(Cell &C, std::uint8_t Mask, bool Write, std::uintptr_t Base,
                    std::uint32_t Me, SiteId Site) {
    // Most accesses find only their own procedure's records, or none:
    // nothing can race and no bag is looked up.
    // A read only needs the writes (an ignored granule's mark is one).
    bool Foreign = false;
    for (const Record &R : C.Slot)
      Foreign |= R.Strand != 0 && R.Strand != Me && (Write || R.write());
    if (__builtin_expect(Foreign, false)) {
      if (C.Slot[0].Strand == kIgnoredStrand)
        return;
      checkForeign(C, Mask, Write, Base, Me, Site);
    }
    // The usual records, inline, as record() keeps them: the granule holds
    // one record at most, and
    //  - none: the access takes the first slot;
    //  - this procedure's write of these bytes or more, and this is a
    //    read: not recorded on them;
    //  - this procedure's record of the same kind, at the same site or of
    //    no more bytes: it takes this access's site and bytes;
    //  - another procedure's write, and this is a read: the read takes
    //    the second slot.
    Record &First = C.Slot[0];
    if (__builtin_expect(C.Slot[1].empty() && C.Slot[2].empty(), true)) {
      if (First.empty()) {
        First.set(Me, Site, Write, Mask);
        return;
      }
      if (First.Strand == Me) {
        if (First.write() == Write) {
          if (First.site() == Site) {
            First.set(Me, Site, Write,
                      static_cast<std::uint8_t>(First.mask() | Mask));
            return;
          }
          if ((First.mask() & ~Mask) == 0) {
            First.set(Me, Site, Write, Mask);
            return;
          }
        } else if (!Write && (Mask & ~First.mask()) == 0) {
          return;
        }
      } else if (!Write && First.write()) {
        C.Slot[1].set(Me, Site, false, Mask);
        return;
      }
    }
    record(C, Me, Site, Write, Mask);
  }
  void checkForeign(Cell &C, std::uint8_t Mask, bool Write, std::uintptr_t Base,
                    std::uint32_t Me, SiteId Site);
  /// Whether the procedure of a record (Strand, its id plus one) is
  /// logically parallel with the current one. The answers are kept until
  /// the next hook changes the bags (Epoch): a loop over memory other
  /// procedures accessed asks about the same few again and again.
  bool parallel(std::uint32_t Strand) {
    MemoEntry &E = Memo[Strand & (kMemo - 1)];
    if (E.Strand != Strand || E.Epoch != Epoch) {
      E.Strand = Strand;
      E.Epoch = Epoch;
      E.Parallel = Bags.parallel(Strand - 1);
    }
    return E.Parallel;
  }
  /// The bags or the shadow changed behind the filter: every kept answer
  /// and every filter entry is stale.
  void newEpoch() {
    if (__builtin_expect(++Epoch == 0, false)) {
      for (MemoEntry &E : Memo)
        E = MemoEntry{};
      for (FilterEntry &E : Filter)
        E = FilterEntry{};
      for (RangeFilterEntry &E : RangeFilter)
        E = RangeFilterEntry{};
      Epoch = 1;
    }
  }
  void record(Cell &C, std::uint32_t Me, SiteId Site, bool Write,
              std::uint8_t Mask);
  void report(const Record &Earlier, bool EarlierWrite, std::uint32_t Me,
              SiteId Site, bool Write, std::uintptr_t Address);

  SpBags Bags;
  Shadow TheShadow;
  Sites TheSites;
  Locks TheLocks;
  std::vector<HookRecord> Records; // [0] is the program's own
  StackId Current = kRootStack;
  std::vector<StackId> Stack;
  std::uintptr_t LowestFrame = UINTPTR_MAX;
  static constexpr std::size_t kMemo = 64;
  struct MemoEntry {
    std::uint32_t Strand = 0;
    std::uint32_t Epoch = 0;
    bool Parallel = false;
  };
  MemoEntry Memo[kMemo];
  /// The last access to each granule (by its low bits) checked in full,
  /// valid in its epoch.
  static constexpr unsigned kFilterBits = 12;
  static constexpr std::size_t kFilter = std::size_t(1) << kFilterBits;
  struct FilterEntry {
    std::uintptr_t Granule = 0;
    std::uintptr_t Pc = 0;
    StackId Stack = 0;
    std::uint32_t Epoch = 0;
    std::uint32_t Size = 0; // the whole access's, at most UINT32_MAX
    std::uint8_t Mask = 0;
    bool Write = false;
  };
  FilterEntry Filter[kFilter];
  /// The filter entry of a granule: a multiplicative hash of its number,
  /// so that a column's granules (a stride of a power of two) do not all
  /// share a few entries.
  FilterEntry &filterSlot(std::uintptr_t Granule) {
    return Filter[(std::uint64_t(Granule) * 0x9e3779b97f4a7c15ull) >>
                  (64 - kFilterBits)];
  }
  /// Whether an access of the granule's bytes Mask changes nothing and
  /// finds no race, given its entry E: the last access to the granule
  /// checked in full, in this epoch (no hook since, so the same procedure,
  /// and nothing else since touched the granule's records), covered these
  /// bytes, and either
  ///  - was the same code, call stack, size and kind: the same procedure
  ///    then finds the same records, and leaves them as they are; or
  ///  - was a write and this is a read: its procedure's write then holds
  ///    these bytes alone among the write records, which is all a read is
  ///    checked against, and a read is not recorded on bytes its own
  ///    procedure wrote (the write already took them over from the read
  ///    records the read would).
  bool filtered(const FilterEntry &E, std::uintptr_t Granule,
                std::uint8_t Mask, bool Write, std::uintptr_t Pc,
                std::uint32_t Size) const {
    if (E.Granule != Granule || E.Epoch != Epoch || (Mask & ~E.Mask) != 0)
      return false;
    if (E.Write && !Write)
      return true;
    return E.Pc == Pc && E.Stack == Current && E.Write == Write &&
           E.Size == Size;
  }
  /// A version per page of memory (hashed: pages that share a slot share
  /// a version), advanced by every check that did not go through a
  /// filter, since such a check may change the page's records.
  static constexpr unsigned kPageShift = 12;
  static constexpr unsigned kVersionBits = 14;
  std::uint32_t Versions[std::size_t(1) << kVersionBits] = {};
  std::uint32_t &versionOf(std::uintptr_t Address) {
    return Versions[(std::uint64_t(Address >> kPageShift) *
                     0x9e3779b97f4a7c15ull) >>
                    (64 - kVersionBits)];
  }
  void touched(std::uintptr_t Address) { ++versionOf(Address); }
  /// The last range access checked in full at each code address and start
  /// (hashed), with the versions of the one or two pages it spans: the
  /// same range again, by the same code and call stack, in the same epoch,
  /// with both versions unchanged, finds the records it left itself, so
  /// its check would find nothing new and change nothing
  /// (rangeFiltered()).
  static constexpr unsigned kRangeFilterBits = 10;
  struct RangeFilterEntry {
    std::uintptr_t Address = 0;
    std::uintptr_t Pc = 0;
    std::size_t Size = 0;
    StackId Stack = 0;
    std::uint32_t Epoch = 0;
    std::uint32_t FirstVersion = 0;
    std::uint32_t LastVersion = 0;
    bool Write = false;
  };
  RangeFilterEntry RangeFilter[std::size_t(1) << kRangeFilterBits];
  RangeFilterEntry &rangeFilterSlot(std::uintptr_t Address, std::uintptr_t Pc) {
    return RangeFilter[((std::uint64_t(Address) ^ (std::uint64_t(Pc) << 17)) *
                        0x9e3779b97f4a7c15ull) >>
                       (64 - kRangeFilterBits)];
  }
  /// Whether \p E, the range filter's entry, says that this range access
  /// finds the records it left itself.
  bool rangeFiltered(const RangeFilterEntry &E, std::uintptr_t Address,
                     std::size_t Size, bool Write, std::uintptr_t Pc) {
    return E.Address == Address && E.Pc == Pc && E.Size == Size &&
           E.Stack == Current && E.Epoch == Epoch && E.Write == Write &&
           E.FirstVersion == versionOf(Address) &&
           E.LastVersion == versionOf(Address + Size - 1);
  }
  std::uint32_t Epoch = 1;
  std::vector<Race> Races;
  std::set<std::pair<std::uintptr_t, std::uintptr_t>> Seen; // pc pairs
  // The code addresses of racing releases, and what each released by.
  std::map<std::uintptr_t, Release> ReleaseSites;
  /// A race of a free found by freed(), until flushFreeRaces(); more than
  /// kFreeRaces distinct ones before a hook are dropped.
  struct FreeRace {
    std::uint32_t Strand; // the earlier access's procedure, plus one
    std::uint32_t EarlierSite;
    bool EarlierWrite;
    StackId Stack; // the free's call stack and code address
    std::uintptr_t Pc;
    std::uint32_t Size;
    LocksetId Locks;
    std::uintptr_t Address;
    Release How;
  };
  static constexpr unsigned kFreeRaces = 64; // more are dropped
  FreeRace FreeRaces[kFreeRaces];
  unsigned FreeRaceCount = 0;
  std::pair<std::uintptr_t, std::uintptr_t> LastPair{};
};

/// The one detector's storage (hooks.cpp constructs it there before the
/// program's own constructors, and never destroys it: the report runs
/// after every destructor).
alignas(Detector) extern unsigned char DetectorStorage[];
inline Detector &detector() {
  return *reinterpret_cast<Detector *>(DetectorStorage);
}

/// Prints the races (symbolized) and the last line; returns their count
/// after merging those at the same pair of source locations (report.cpp).
std::size_t printReport(Detector &D);

} // namespace weft::race

#endif // WEFT_RUNTIME_ANALYSIS_RACE_DETECTOR_H
