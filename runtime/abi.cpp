//===- abi.cpp - The entry points that compiled spawning functions call ---===//
//
// The IR pass (plugin/lower/LowerSpawns.cpp) emits, per spawning function F:
//
//   fast clone (ramp)                    slow clone (F.resume)
//   -----------------                    ---------------------
//   __weft_push(frame)  before a spawned call; the continuation is stealable
//   __weft_pop()        after it: true if the frame was not stolen
//   __weft_spawn_stolen(frame)  when the pop failed (child done)
//       ... then parks                   ... then suspends
//   (syncs are free)                     __weft_sync_slow(frame) at a sync
//   return normally                      __weft_frame_complete(frame) at end
//
// Each entry point's contract is in weft/runtime_abi.def, whose prototypes
// (through weft/frame_abi.h) these definitions must match.
//
//===----------------------------------------------------------------------===//

#include "config.h"
#include "fence.h"
#include "preserve_most.h"
#include "worker.h"

#include "weft/frame_abi.h"

#include <sched.h>

namespace weft {
namespace {

Frame *asFrame(void *P) { return static_cast<Frame *>(P); }

/// Stress mode yields after a push unless these bits of a random number
/// are all zero: after three pushes in four (stressPoint()).
constexpr std::uint64_t kStressYieldMask = 3;

/// Knuth's MMIX linear congruential generator; its high bits are the
/// random ones.
std::uint64_t nextStressRandom(Worker *W) {
  W->stress_rng = W->stress_rng * 6364136223846793005ull + 1442695040888963407ull;
  return W->stress_rng >> 33;
}

/// A child of F has finished and its result is stored in F's frame.
void childDone(Worker *W, Frame *F) {
  // Release publishes the child's result; acquire (for the last child)
  // makes every earlier child's result visible to the resumed continuation.
  std::int64_t Now = F->join.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (Now == kWaitBias) {
    // The slow clone waits at a sync and this was its last child: resume
    // it here, from this worker's scheduler loop.
    F->join.store(0, std::memory_order_relaxed);
    W->ready_frame = F;
  }
}

/// The fast clone of F was stolen: park this whole stack until F's slow
/// clone completes, so that F's frame (in this stack) and every caller's
/// frame below it stay intact. Returns on whichever thread resumes it.
void parkUntilComplete(Worker *W, Frame *F) {
  W->stats.parks.add();
  switch_to(take_park_stack(W), PendingAction::PublishPark, F);
  // F's slow clone completed and left the views of everything up to F's
  // return: this stack's strand goes on with them, on whichever worker.
  current_worker()->views = take_views(F);
}

/// Ends the strand the worker was running: its views go to \p F as
/// segment \p Segment of F's strands since the last sync.
void endStrand(Worker *W, Frame *F, std::uint32_t Segment) {
  W->scheduler_events.add(); // progress, for the hang watchdog
  deposit_views(F, W->views, Segment);
  W->views = StrandViews::stolen();
}

/// Validates the environment at start-up, so that a bad value is reported
/// even by a program that never spawns.
__attribute__((constructor)) void checkEnvironment() {
  detail::StressMode = config().stress;
  // Before main: no push can have read PushHooks yet.
  if (detail::StressMode)
    detail::PushHooks.fetch_or(detail::StressBit, std::memory_order_relaxed);
}

/// Stress mode: give thieves a window after most pushes, so that on two
/// cores the stolen path runs about as often as the fast path.
void stressPoint(Worker *W) {
  if ((nextStressRandom(W) & kStressYieldMask) != 0)
    sched_yield();
}

} // namespace

bool detail::StressMode = false;

} // namespace weft

using namespace weft;

extern "C" {

/// Offers the caller's continuation to thieves. Registers the thread (and
/// starts the pool) on its first spawn. The fast path inlined into fast
/// clones (fast_path.cpp) comes here when the thread is new or its ring
/// looks full.
std::int64_t __weft_push(void *Frame) {
  Worker *W = current_or_new_worker();
  std::int64_t Mark = W->deque.push(asFrame(Frame));
  if (push_needs_hooks())
    __weft_after_push(W);
  return Mark;
}

/// What a push must do besides pushing when push_needs_hooks(): count it
/// while spawns are counted, wake a sleeping worker, so that the new work
/// does not wait for its timeout, and in stress mode give thieves a
/// window. Thieves move only the top, so the deque's bottom still gives
/// the push's mark.
std::int64_t __weft_after_push(void *WorkerPtr) {
  auto *W = static_cast<Worker *>(WorkerPtr);
  if (push_hooks() & detail::CountBit)
    W->stats.spawns.add();
  wake_one_if_sleeping();
  if (detail::StressMode)
    stressPoint(W);
  return W->deque.owner_mark();
}

/// __weft_push, __weft_after_push and __weft_pedigree_enter as the inlined
/// fast path calls them:
/// with LLVM's preserve_most convention (preserve_most.h), so that a fast
/// clone holds nothing in a callee-saved register, and so has no bigger
/// stack frame at every level of its recursion, only because a value lives
/// across these rare calls.
#if defined(__x86_64__)
WEFT_PRESERVE_MOST_THUNK(__weft_push_preserving, __weft_push)
WEFT_PRESERVE_MOST_THUNK(__weft_after_push_preserving, __weft_after_push)
WEFT_PRESERVE_MOST_THUNK_TYPED(void *, __weft_pedigree_enter_preserving, (void),
                               __weft_pedigree_enter)
#endif

/// Takes back the frame the caller pushed; false if a thief took it.
bool __weft_pop(std::int64_t Mark) {
  return current_worker()->deque.pop_owned(Mark);
}

/// The inlined pop's rare endings (fast_path.cpp): the rest of
/// Deque::pop_owned(Mark), on the caller's thread, which the pop's own
/// push registered.
bool __weft_pop_unmarked() { return current_worker()->deque.pop_owned(); }

bool __weft_pop_fenced(std::int64_t Reserved) {
  return current_worker()->deque.pop_owned_fenced(Reserved);
}

/// A child's pop failed (contracts: weft/runtime_abi.def).
void __weft_spawn_stolen(void *FramePtr) {
  Frame *F = asFrame(FramePtr);
  Worker *W = current_worker();
  // The slow clone running at the base of this stack is F's only if this
  // call comes from the slow clone; a fast clone of F runs above its
  // caller, never above F's own slow clone.
  Stack *S = W->current_stack;
  bool FromSlowClone = S->resumed_frame == F;
  // The strand that spawned the child ends with it; in the fast clone it is
  // F's first (F's first steal came after it).
  endStrand(W, F, FromSlowClone ? S->resumed_segment : 0);
  childDone(W, F);
  if (!FromSlowClone)
    parkUntilComplete(W, F);
}

/// A sync of the slow clone: true if it must suspend.
bool __weft_sync_slow(void *FramePtr) {
  Frame *F = asFrame(FramePtr);
  Worker *W = current_worker();
  Stack *S = W->current_stack;
  // Deposited before the join count's release, so that the strand that
  // resumes F after the sync sees these views with every child's.
  endStrand(W, F, S->resumed_segment);
  std::int64_t Steals = F->steals;
  F->steals = 0;
  std::int64_t Now =
      F->join.fetch_add(kWaitBias - Steals, std::memory_order_acq_rel) +
      kWaitBias - Steals;
  if (Now != kWaitBias)
    return true; // suspend; the last child resumes us (childDone)
  F->join.store(0, std::memory_order_relaxed);
  W->views = take_views(F);
  S->resumed_segment = 0; // after a sync, F's strands are numbered anew
  return false;
}

/// The slow clone has completed: resumes the parked fast clone.
void __weft_frame_complete(void *FramePtr) {
  Frame *F = asFrame(FramePtr);
  Worker *W = current_worker();
  // The last strand of F hands its views (everything since the caller's
  // last steal, merged by the final sync) to the fast clone that resumes
  // after this, through the frame.
  endStrand(W, F, W->current_stack->resumed_segment);
  // Release publishes the result stored in the frame and the views; acquire
  // pairs with the parker's publication of its stack context.
  std::uintptr_t Parked = F->park.exchange(kParkDone, std::memory_order_acq_rel);
  if (Parked)
    make_ready(W, reinterpret_cast<Stack *>(Parked));
}

} // extern "C"
