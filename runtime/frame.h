//===- frame.h - The runtime's view of a spawning function's frame --------===//
//
// One Frame per activation of a spawning function, inside its coroutine
// frame (layout shared with the IR pass through weft/frame_abi.h).
//
// Ownership. The instance running the function owns the frame; pushing it
// on a deque offers it; a thief that steals it becomes the owner and runs
// the slow clone. The instance that pushed keeps running the spawned child
// and, when the child returns, finds its pop failing: it then touches only
// `join` (child_done) and `park` (if it is the fast clone, which parks).
//
// Join. `steals` counts the steals of this frame since the last sync
// (written by thieves, who own the frame at that moment). `join` counts
// children that finished since then. A sync in the slow clone subtracts
// `steals` and adds kWaitBias: if the result is exactly kWaitBias every
// stolen child is done; otherwise the child whose increment brings `join`
// to kWaitBias resumes the frame.
//
// Views. Reducer views travel with strands: a strand that ends deposits
// its views in the frame, and the sync merges them in serial order
// (views.h).
//
// Park. A fast clone whose frame was stolen parks its stack and publishes
// it in `park`; the slow clone, when it completes, swaps kParkDone in. Who
// comes second resumes the parked stack.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_FRAME_H
#define WEFT_RUNTIME_FRAME_H

#include "weft/frame_abi.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace weft {

struct Frame {
  std::atomic<std::int64_t> join;
  std::atomic<std::uintptr_t> park;
  std::uint32_t steals;
  std::uint8_t stolen;
  std::uint8_t reserved[3];
  // An exception a child or the slow clone left for the sync or for the
  // parked fast clone (a std::exception_ptr on the heap; exceptions.cpp).
  std::atomic<void *> exception;
  // Reducer views of the strands of this frame that ended since the last
  // sync, waiting to be merged there (views.h): a list of ViewMaps, and in
  // bit 0 whether segment 0 was the leftmost strand.
  std::atomic<std::uintptr_t> views;

  /// The coroutine handle: the frame is its promise, at a fixed offset
  /// (frame_abi.h). The handle's first word is the slow clone's entry.
  void *coroutine() {
    return reinterpret_cast<char *>(this) - WEFT_FRAME_PROMISE_OFFSET;
  }

  /// The slow clone's entry.
  void (*slowClone())(void *) {
    return *static_cast<void (**)(void *)>(coroutine());
  }

  /// Enters the slow clone at the frame's current resume point.
  void resume() { slowClone()(coroutine()); }
};

inline constexpr std::int64_t kWaitBias = std::int64_t(1) << 40;
inline constexpr std::uintptr_t kParkDone = 1;

static_assert((2 * sizeof(void *) + WEFT_FRAME_PROMISE_ALIGN - 1) /
                      WEFT_FRAME_PROMISE_ALIGN * WEFT_FRAME_PROMISE_ALIGN ==
                  WEFT_FRAME_PROMISE_OFFSET,
              "the promise follows the resume and destroy pointers");
static_assert(offsetof(Frame, join) == WEFT_FRAME_JOIN_OFFSET);
static_assert(offsetof(Frame, park) == WEFT_FRAME_PARK_OFFSET);
static_assert(offsetof(Frame, steals) == WEFT_FRAME_STEALS_OFFSET);
static_assert(offsetof(Frame, stolen) == WEFT_FRAME_STOLEN_OFFSET);
static_assert(offsetof(Frame, exception) == WEFT_FRAME_EXCEPTION_OFFSET);
static_assert(offsetof(Frame, views) == WEFT_FRAME_VIEWS_OFFSET);
static_assert(sizeof(Frame) == WEFT_FRAME_SIZE);
static_assert(alignof(Frame) <= WEFT_FRAME_ALIGN);
static_assert(std::atomic<std::int64_t>::is_always_lock_free);

} // namespace weft

#endif // WEFT_RUNTIME_FRAME_H
