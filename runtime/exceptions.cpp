//===- exceptions.cpp - Carrying an exception from a child to its sync ----===//
//
// The IR pass catches an exception where it would leave a spawned child or
// a slow clone (plugin/lower/SpawnExceptions.cpp) and hands it here; the frame
// keeps it until a sync, or the parked fast clone, rethrows it. Only this
// file is compiled with exceptions, and only programs that can throw link
// it, so C programs never pull in the C++ runtime.
//
//===----------------------------------------------------------------------===//

#include "frame.h"

#include "weft/frame_abi.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

extern "C" void *__cxa_begin_catch(void *) noexcept;
extern "C" void __cxa_end_catch();

using weft::Frame;

extern "C" {

/// Takes ownership of the exception in flight at a landing pad (\p Exn is
/// the landing pad's exception pointer): it is no longer in flight, so the
/// C++ runtime's per-thread counts stay balanced whichever thread rethrows
/// it. Returns a box that __weft_rethrow_after_sync rethrows (rethrowHeld).
void *__weft_hold(void *Exn) {
  __cxa_begin_catch(Exn);
  auto *Box = new std::exception_ptr(std::current_exception());
  __cxa_end_catch(); // the exception_ptr keeps the object alive
  return Box;
}

/// Rethrows and frees a box from __weft_hold.
[[noreturn]] static void rethrowHeld(void *Held) {
  auto *Box = static_cast<std::exception_ptr *>(Held);
  std::exception_ptr Pending = std::move(*Box);
  delete Box;
  std::rethrow_exception(std::move(Pending));
}

/// Takes ownership of the exception in flight at a landing pad and keeps it
/// in the frame, unless the frame already holds one: when several children
/// throw, the first to arrive wins and the others are destroyed, as OpenCilk
/// does.
void __weft_catch(void *FramePtr, void *Exn) {
  void *Box = __weft_hold(Exn);
  auto *F = static_cast<Frame *>(FramePtr);
  void *Empty = nullptr;
  // Release: whoever takes the box later sees the exception_ptr built.
  // Concurrent children race here; acquire on failure is not needed (the
  // loser only destroys its own box).
  if (!F->exception.compare_exchange_strong(Empty, Box,
                                            std::memory_order_release,
                                            std::memory_order_relaxed))
    delete static_cast<std::exception_ptr *>(Box);
}

/// Rethrows the exception the frame holds and clears the slot.
[[noreturn]] void __weft_rethrow(void *FramePtr) {
  auto *F = static_cast<Frame *>(FramePtr);
  // Acquire: pairs with the release in __weft_catch.
  auto *Box = static_cast<std::exception_ptr *>(
      F->exception.exchange(nullptr, std::memory_order_acquire));
  if (!Box) {
    std::fprintf(stderr, "weft: internal error: rethrow without an exception\n");
    std::abort();
  }
  rethrowHeld(Box);
}

/// After the sync at a landing pad: rethrows a child's exception if one
/// arrived, as it would have been thrown first serially (OpenCilk lets it
/// replace the continuation's too), else \p Held, the continuation's own.
[[noreturn]] void __weft_rethrow_after_sync(void *FramePtr, void *Held) {
  auto *F = static_cast<Frame *>(FramePtr);
  // The sync's acquire made every child's store to the slot visible.
  if (F->exception.load(std::memory_order_relaxed)) {
    delete static_cast<std::exception_ptr *>(Held);
    __weft_rethrow(FramePtr);
  }
  rethrowHeld(Held);
}

/// Parallel loops (plugin/frontend/parallel_for/ParallelForBuild.h): an iteration's catch-all
/// keeps the exception in the slot of the loop's parent, the first to
/// arrive winning as for spawned children, and ends its chunk.
void __weft_pfor_catch(void **Slot) {
  auto *Box = new std::exception_ptr(std::current_exception());
  void *Empty = nullptr;
  // Release: the parent's load after the loop sees the exception_ptr built
  // (the loop's sync orders it after every iteration).
  if (!__atomic_compare_exchange_n(Slot, &Empty, Box, /*weak=*/false,
                                   __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    delete Box;
}

/// After the loop: rethrows the exception an iteration left, if any.
void __weft_pfor_rethrow(void *Held) {
  if (Held)
    rethrowHeld(Held);
}

} // extern "C"
