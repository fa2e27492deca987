//===- strand_views.h - Reducer views as if every continuation were stolen ===//
//
// A race-mode run is serial: in the real runtime every strand of it would
// use the reducer's own (leftmost) view, which the detector does not check.
// But a view often owns memory of its own (a vector's elements, a string's
// characters), and logically parallel strands that append to one view in
// the serial run would be seen as racing on that memory, which on a real
// run they never share: a strand that a steal split off gets a view of its
// own. So the race runtime gives the run the views of the schedule in which
// every continuation is stolen, the one that splits the most:
//
//   cilk_spawn f(r);  // the child goes on with the strand's view, V0
//   g(r);             // the continuation, "stolen", starts with none: the
//                     // first lookup makes V1 from the identity
//   cilk_sync;        // V0 = V0 op V1, and V1 is destroyed
//
// Each spawning function instance (a hook record) numbers its
// continuations since its last sync; a strand is a record and that number,
// and the strand that looks views up is the innermost record whose number
// is not 0 (a call that has not spawned yet runs in its caller's strand),
// or, if there is none, the leftmost, whose view is the reducer's own. A
// sync folds the record's views into those of the strand it continues, in
// serial order, after the detector's own sync: the reduce callbacks' reads
// and writes then follow every strand's. A reducer that ends folds the
// views it still has into its own. The result is the serial elision's, by
// the reducer's associativity, as on any schedule.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_STRAND_VIEWS_H
#define WEFT_RUNTIME_ANALYSIS_RACE_STRAND_VIEWS_H

#include "weft/reducer.h"

#include <cstdint>
#include <vector>

namespace weft::race {

class StrandViews {
public:
  /// The hooks' events, after the detector's (hooks.cpp). \p Record is the
  /// spawning function instance's record; records above it are gone (an
  /// exception left them), and their views are folded first. Every hook
  /// of every spawning function comes here, so these are a few
  /// instructions each, inline, unless there are views to fold; and
  /// nothing until the program first uses a reducer (the strands before
  /// then all use the reducer's own storage, as the serial run did).
  void entered(std::uint32_t Record) {
    if (__builtin_expect(!Tracking, true))
      return;
    unwindTo(Record == 0 ? 0 : Record - 1);
    ensure(Record);
    Records[Record] = RecordState{};
    Live = Record + 1;
  }
  void continued(std::uint32_t Record) {
    if (__builtin_expect(!Tracking, true))
      return;
    unwindTo(Record);
    ensure(Record);
    if (Live <= Record)
      Live = Record + 1;
    RecordState &State = Records[Record];
    if (State.Continuations++ == 0) {
      State.Outer = Owner;
      Owner = Record;
    }
  }
  void synced(std::uint32_t Record) {
    if (__builtin_expect(!Tracking, true))
      return;
    unwindTo(Record);
    if (hasStrands(Record))
      fold(Record);
  }
  void exited(std::uint32_t Record) {
    if (__builtin_expect(!Tracking, true))
      return;
    synced(Record);
    Live = Record;
  }
  /// Whether \p Record has views to fold at its implicit sync.
  bool hasStrands(std::uint32_t Record) const {
    return Record < Live && Records[Record].Continuations != 0;
  }

  /// The calling strand's view of \p R: its own storage in the leftmost
  /// strand, otherwise one made from the identity on first use.
  void *view(__weft_reducer *R);
  /// \p R made its own storage the view of the calling strand.
  void registered(__weft_reducer *R);
  /// \p R ends: the views it still has fold into its own storage.
  void unregistered(__weft_reducer *R);

private:
  static constexpr std::uint32_t kLeftmost = UINT32_MAX;
  struct RecordState {
    std::uint32_t Continuations = 0; // since the last sync
    std::uint32_t Outer = kLeftmost; // the strand's record before the first
  };
  struct View {
    std::uint32_t Record, Continuation; // the strand it belongs to
    __weft_reducer *Reducer;
    void *Memory;
  };
  View *find(std::uint32_t Record, __weft_reducer *R);
  void ensure(std::uint32_t Record) {
    if (__builtin_expect(Records.size() <= Record, false))
      Records.resize(Record + 1);
  }
  /// Folds the records an exception left open above \p Record (every
  /// record at or above Live has none to fold).
  void unwindTo(std::uint32_t Record) {
    for (; Live > Record + 1; --Live)
      if (__builtin_expect(Records[Live - 1].Continuations != 0, false))
        fold(Live - 1);
  }
  void fold(std::uint32_t Record);
  void foldInto(const View &Right);

  std::vector<RecordState> Records; // grows to the deepest nesting seen
  std::uint32_t Live = 0;           // the records in use: [0, Live)
  std::vector<View> Views;
  std::uint32_t Owner = kLeftmost; // the innermost record that continued
  bool Tracking = false;           // from the first reducer's use on
};

/// The one instance: made on first use, by the followed thread only, and
/// never destroyed; a pointer, constant-initialized, without a guard (whose
/// lock the race runtime's own pthread functions would see).
inline StrandViews *TheStrandViews = nullptr;
inline StrandViews &strandViews() {
  if (__builtin_expect(!TheStrandViews, false))
    TheStrandViews = new StrandViews();
  return *TheStrandViews;
}

} // namespace weft::race

#endif // WEFT_RUNTIME_ANALYSIS_RACE_STRAND_VIEWS_H
