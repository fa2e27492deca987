//===- views.cpp - Reducer views and their merging in serial order --------===//
//
// The protocol is in views.h. What this file adds: how two strands' views
// merge. Merging the views of a left strand L with those of the strand R
// that follows it serially:
//
//   L is the leftmost strand: each view of R that is not the reducer's own
//     is reduced into the reducer's own storage (the leftmost view), which
//     no other strand uses meanwhile: only the leftmost strand touches it,
//     and it has ended.
//   otherwise, for each view of R: L's view of the same reducer absorbs it
//     (reduce, then destroy R's view), or, if L has none, L takes it over.
//
// The result is the views of the strand L + R, leftmost if L was.
//
//===----------------------------------------------------------------------===//

#include "views.h"

#include "frame.h"
#include "pedigree.h"
#include "worker.h"

#include <cstdlib>
#include <new>

namespace weft {

void *newIdentityView(__weft_reducer *R) {
  void *View = ::operator new(R->view_size, std::align_val_t(R->view_align));
  PedigreeCallbackScope OwnPedigree;
  R->identity(R, View);
  return View;
}

void deleteView(__weft_reducer *R, void *View) {
  if (R->destroy) {
    PedigreeCallbackScope OwnPedigree;
    R->destroy(R, View);
  }
  ::operator delete(View, std::align_val_t(R->view_align));
}

namespace {

constexpr std::uintptr_t kLeftmostDeposited = 1;

unsigned hashOf(const __weft_reducer *R, unsigned Capacity) {
  auto Bits = reinterpret_cast<std::uintptr_t>(R) >> 4;
  return static_cast<unsigned>((Bits * 0x9E3779B97F4A7C15ull) >> 32) &
         (Capacity - 1);
}

/// Folds \p View, a view of \p R other than its own, into R's own view.
void reduceIntoLeftmost(__weft_reducer *R, void *View) {
  {
    PedigreeCallbackScope OwnPedigree;
    R->reduce(R, R->leftmost, View);
  }
  deleteView(R, View);
}

/// Merges the views of a strand, \p Right, into those of the strand just
/// before it, \p Left (see the file header). Consumes Right.
StrandViews merge(StrandViews Left, ViewMap *Right) {
  if (Left.Leftmost) {
    Right->forEach([](__weft_reducer *R, void *View) {
      if (View != R->leftmost)
        reduceIntoLeftmost(R, View);
    });
    delete Right;
    return Left;
  }
  if (!Left.Map)
    return {Right, false};
  Right->forEach([&Left](__weft_reducer *R, void *View) {
    void *Mine = Left.Map->find(R);
    if (!Mine) {
      Left.Map->set(R, View);
    } else if (View == R->leftmost) {
      // Only after a reducer died and another was built at its address:
      // the newer one's own view wins over a stale one.
      deleteView(R, Mine);
      Left.Map->set(R, View);
    } else {
      {
        PedigreeCallbackScope OwnPedigree;
        R->reduce(R, Mine, View);
      }
      deleteView(R, View);
    }
  });
  delete Right;
  return Left;
}

/// Sorts a deposit list by segment. Lists are as long as the steals of one
/// frame between two syncs: insertion sort.
ViewMap *sortBySegment(ViewMap *List) {
  ViewMap *Sorted = nullptr;
  while (List) {
    ViewMap *Next = List->NextDeposit;
    ViewMap **Link = &Sorted;
    while (*Link && (*Link)->Segment < List->Segment)
      Link = &(*Link)->NextDeposit;
    List->NextDeposit = *Link;
    *Link = List;
    List = Next;
  }
  return Sorted;
}

} // namespace

ViewMap::~ViewMap() { delete[] Slots; }

unsigned ViewMap::indexOf(const __weft_reducer *R) const {
  unsigned I = hashOf(R, Capacity);
  while (Slots[I].Key && Slots[I].Key != R)
    I = (I + 1) & (Capacity - 1);
  return I;
}

void *ViewMap::findAndCache(const __weft_reducer *R) {
  if (Count == 0)
    return nullptr;
  const Slot &S = Slots[indexOf(R)];
  if (!S.Key)
    return nullptr;
  LastKey = R;
  LastView = S.View;
  return S.View;
}

void ViewMap::set(__weft_reducer *R, void *View) {
  if (2 * (Count + 1) > Capacity)
    grow();
  Slot &S = Slots[indexOf(R)];
  if (!S.Key)
    ++Count;
  S = {R, View};
  LastKey = R;
  LastView = View;
}

void *ViewMap::remove(const __weft_reducer *R) {
  if (R == LastKey) {
    LastKey = nullptr;
    LastView = nullptr;
  }
  if (Count == 0)
    return nullptr;
  unsigned I = indexOf(R);
  if (!Slots[I].Key)
    return nullptr;
  void *View = Slots[I].View;
  Slots[I] = {nullptr, nullptr};
  --Count;
  // Backward-shift deletion: re-place the rest of the probe run so that no
  // lookup stops early at the hole.
  for (unsigned J = (I + 1) & (Capacity - 1); Slots[J].Key;
       J = (J + 1) & (Capacity - 1)) {
    Slot Moved = Slots[J];
    Slots[J] = {nullptr, nullptr};
    Slots[indexOf(Moved.Key)] = Moved;
  }
  return View;
}

void ViewMap::grow() {
  Slot *Old = Slots;
  unsigned OldCapacity = Capacity;
  Capacity = Capacity ? 2 * Capacity : 8;
  Slots = new Slot[Capacity]();
  for (unsigned I = 0; I < OldCapacity; ++I)
    if (Old[I].Key)
      Slots[indexOf(Old[I].Key)] = Old[I];
  delete[] Old;
}

void deposit_views(Frame *F, StrandViews Views, std::uint32_t Segment) {
  if (Views.Leftmost) {
    // Only segment 0 can be leftmost: every later one began with a steal.
    // Release: ordered before the join count's release anyway; kept so the
    // list word is never read without the flag's writer's history.
    F->views.fetch_or(kLeftmostDeposited, std::memory_order_release);
    return;
  }
  if (!Views.Map)
    return; // no views: contributes the identity
  ViewMap *Map = Views.Map;
  Map->Segment = Segment;
  std::uintptr_t Head = F->views.load(std::memory_order_relaxed);
  do {
    Map->NextDeposit = reinterpret_cast<ViewMap *>(Head & ~kLeftmostDeposited);
    // Release: a concurrent depositor (another strand of F ending) may push
    // next; the merging sync reads the list after the join count's
    // acquire, which already covers this push.
  } while (!F->views.compare_exchange_weak(
      Head, reinterpret_cast<std::uintptr_t>(Map) | (Head & kLeftmostDeposited),
      std::memory_order_release, std::memory_order_relaxed));
}

StrandViews take_views(Frame *F) {
  // Acquire: pairs with the depositors' releases (the join count's acquire
  // also orders them; this keeps the list self-contained).
  std::uintptr_t Head = F->views.exchange(0, std::memory_order_acquire);
  StrandViews Result = {nullptr, (Head & kLeftmostDeposited) != 0};
  ViewMap *List =
      sortBySegment(reinterpret_cast<ViewMap *>(Head & ~kLeftmostDeposited));
  while (List) {
    ViewMap *Next = List->NextDeposit;
    List->NextDeposit = nullptr;
    Result = merge(Result, List);
    List = Next;
  }
  return Result;
}

} // namespace weft

using namespace weft;

extern "C" {

// Defined by the race runtime (libweft_race.a) only: a race-mode run is
// serial, and its strands get the views of the schedule that steals every
// continuation, whose accesses the detector checks as the strands' own
// (runtime/analysis/race/strand_views.h); the reducer's own storage is not
// checked. Weak, so that a program without them calls nothing.
void __weft_race_reducer(__weft_reducer *R, int Live) __attribute__((weak));
void *__weft_race_view(__weft_reducer *R) __attribute__((weak));

void *__weft_reducer_lookup(__weft_reducer *R) {
  // No stack switch can happen in here, so the thread-local read is safe
  // without current_worker()'s barrier.
  Worker *W = thread_worker_or_null();
  if (!W || W->views.Leftmost)
    return __weft_race_view ? __weft_race_view(R) : R->leftmost;
  if (!W->views.Map)
    W->views.Map = new ViewMap();
  if (void *View = W->views.Map->find(R))
    return View;
  void *View = newIdentityView(R);
  W->views.Map->set(R, View);
  return View;
}

void __weft_reducer_register(__weft_reducer *R, void *Leftmost) {
  R->leftmost = Leftmost;
  if (__weft_race_reducer)
    __weft_race_reducer(R, 1);
  Worker *W = current_worker();
  if (!W || W->views.Leftmost)
    return;
  // Built in a strand that is not the leftmost: this strand's view is the
  // reducer's own storage, and strands to its right get identities.
  if (!W->views.Map)
    W->views.Map = new ViewMap();
  W->views.Map->set(R, Leftmost);
}

void __weft_reducer_unregister(__weft_reducer *R) {
  if (__weft_race_reducer)
    __weft_race_reducer(R, 0);
  Worker *W = current_worker();
  if (!W || W->views.Leftmost || !W->views.Map)
    return;
  void *View = W->views.Map->remove(R);
  if (View && View != R->leftmost)
    reduceIntoLeftmost(R, View);
}

} // extern "C"
