//===- views.h - Reducer views: one map per strand, merged in serial order ===//
//
// A reducer (weft/reducer.h) has one view per strand that touches it. The
// leftmost strand, the one no steal has split off, uses the reducer's own
// storage (its leftmost view); any other strand gets an identity view on
// first use, kept in that strand's ViewMap. The worker running a strand
// holds its views (Worker::views).
//
// Where strands split and meet. A steal of frame F starts a new strand:
// the thief runs F's continuation with no views. The strands of F between
// two syncs are numbered in serial order: segment 0 runs from the start
// (or the last sync) to the first stolen spawn's child's return, and the
// k-th steal starts segment k, which ends when the child it spawns next
// returns, or at the sync. A strand that ends hands its views to F
// (deposit_views); the sync merges them in segment order (take_views), so
// a reduction is applied left to right whatever order the strands finished
// in. A fast clone that parked gets the merged views of its frame when it
// runs again: its frame's slow clone deposits them at completion.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_VIEWS_H
#define WEFT_RUNTIME_VIEWS_H

#include "weft/reducer.h"

#include <cstdint>

namespace weft {

struct Frame;

/// A view of \p R made from its identity (the runtime's heap, aligned as
/// R says); and one destroyed (R's destroy, if any) and freed.
void *newIdentityView(__weft_reducer *R);
void deleteView(__weft_reducer *R, void *View);

/// A strand's views: reducer -> view, open addressing with linear probing.
/// Only the worker running the strand touches it, until the strand ends and
/// the map goes to a frame; then only the sync that merges it.
class ViewMap {
public:
  ~ViewMap();

  /// The strand's view of \p R, or null. A loop that updates one reducer
  /// looks the same key up again and again: the last one found is cached.
  void *find(const __weft_reducer *R) {
    if (R == LastKey)
      return LastView;
    return findAndCache(R);
  }
  /// Sets the view of \p R, replacing any.
  void set(__weft_reducer *R, void *View);
  /// Removes \p R's entry; returns its view, or null.
  void *remove(const __weft_reducer *R);

  template <typename Fn> void forEach(Fn F) const {
    for (unsigned I = 0; I < Capacity; ++I)
      if (Slots[I].Key)
        F(Slots[I].Key, Slots[I].View);
  }

  // The frame's deposit list links maps by these (views.cpp).
  ViewMap *NextDeposit = nullptr;
  std::uint32_t Segment = 0;

private:
  void *findAndCache(const __weft_reducer *R);

  struct Slot {
    __weft_reducer *Key;
    void *View;
  };
  unsigned indexOf(const __weft_reducer *R) const;
  void grow();

  Slot *Slots = nullptr;
  unsigned Capacity = 0; // 0 or a power of two
  unsigned Count = 0;
  const __weft_reducer *LastKey = nullptr; // never a key with no view
  void *LastView = nullptr;
};

/// The views of the strand a worker runs.
struct StrandViews {
  /// Views of a strand other than the leftmost; null until the first one.
  ViewMap *Map = nullptr;
  /// The leftmost strand uses the reducers' own storage, so has no map.
  bool Leftmost = false;

  static StrandViews leftmost() { return {nullptr, true}; }
  static StrandViews stolen() { return {nullptr, false}; }
};

/// Ends the strand that ran segment \p Segment of \p F's current epoch:
/// \p Views go to F until the sync. Call before the join count announces
/// the strand's end, which publishes the deposit.
void deposit_views(Frame *F, StrandViews Views, std::uint32_t Segment);

/// Merges everything deposited in \p F in serial order and empties F's
/// list. Call only when every strand of the epoch has ended (after the
/// join count said so, whose acquire makes every deposit visible).
StrandViews take_views(Frame *F);

} // namespace weft

#endif // WEFT_RUNTIME_VIEWS_H
