//===- strand_views.cpp - Reducer views as if every continuation were stolen //
//
// strand_views.h says why and how. Only the followed thread calls in here
// (the hooks and the runtime's lookups check Detector::follows() first).
//
//===----------------------------------------------------------------------===//

#include "analysis/race/strand_views.h"
#include "views.h"

#include <algorithm>

namespace weft::race {
namespace {

/// Left = Left op Right; Right, a view made here, is gone.
void reduceInto(__weft_reducer *R, void *Left, void *Right) {
  R->reduce(R, Left, Right);
  deleteView(R, Right);
}

} // namespace

void *StrandViews::view(__weft_reducer *R) {
  Tracking = true;
  if (Owner == kLeftmost)
    return R->leftmost;
  if (View *Mine = find(Owner, R))
    return Mine->Memory;
  void *Memory = newIdentityView(R);
  Views.push_back(View{Owner, Records[Owner].Continuations, R, Memory});
  return Memory;
}

void StrandViews::registered(__weft_reducer *R) {
  Tracking = true;
  // Built in a strand other than the leftmost: that strand's view is the
  // reducer's own storage (as in the runtime's views.cpp).
  if (Owner != kLeftmost)
    Views.push_back(
        View{Owner, Records[Owner].Continuations, R, R->leftmost});
}

void StrandViews::unregistered(__weft_reducer *R) {
  std::vector<View> Mine;
  auto Others = std::stable_partition(
      Views.begin(), Views.end(),
      [R](const View &V) { return V.Reducer != R; });
  Mine.assign(Others, Views.end());
  Views.erase(Others, Views.end());
  for (const View &V : Mine)
    if (V.Memory != R->leftmost)
      reduceInto(R, R->leftmost, V.Memory);
}

StrandViews::View *StrandViews::find(std::uint32_t Record, __weft_reducer *R) {
  std::uint32_t Continuation = Records[Record].Continuations;
  for (auto It = Views.rbegin(); It != Views.rend(); ++It)
    if (It->Reducer == R && It->Record == Record &&
        It->Continuation == Continuation)
      return &*It;
  return nullptr;
}

void StrandViews::fold(std::uint32_t Record) {
  RecordState &State = Records[Record];
  Owner = State.Outer;
  State = RecordState{};
  if (Views.empty()) // no reducer was looked up in a continuation
    return;
  // The record's views, in the serial order they were made in (strand by
  // strand), leave the list before any reduce callback runs.
  std::vector<View> Right;
  auto Others = std::stable_partition(
      Views.begin(), Views.end(),
      [Record](const View &V) { return V.Record != Record; });
  Right.assign(Others, Views.end());
  Views.erase(Others, Views.end());
  for (const View &V : Right)
    foldInto(V);
}

void StrandViews::foldInto(const View &Right) {
  __weft_reducer *R = Right.Reducer;
  bool Own = Right.Memory == R->leftmost;
  if (Owner == kLeftmost) {
    if (!Own)
      reduceInto(R, R->leftmost, Right.Memory);
    return;
  }
  if (View *Left = find(Owner, R)) {
    if (!Own)
      reduceInto(R, Left->Memory, Right.Memory);
    return;
  }
  // The strand continued has no view yet: the identity's op Right is Right.
  Views.push_back(
      View{Owner, Records[Owner].Continuations, R, Right.Memory});
}

} // namespace weft::race
