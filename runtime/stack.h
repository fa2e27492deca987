//===- stack.h - Execution stacks and switching between them --------------===//
//
// A worker runs on one Stack at a time. Native stacks belong to a thread and
// may only run on it (an external caller's stack holds its caller's frames).
// Fiber stacks are mmap'd with a guard page, start in the scheduler loop,
// and may run on any worker: a parked fiber resumes wherever the frame it
// waits for completes. How many may be in use at once is bounded
// (stack_budget.h); each worker keeps a few idle ones for reuse.
//
// A switch leaves a PendingAction for the code that lands on the target
// stack, because the stack being left cannot be published (or recycled)
// until its context is saved, which only the landing side sees.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_STACK_H
#define WEFT_RUNTIME_STACK_H

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>
#include <cstdint>

namespace weft {

struct Frame;
struct Worker;

struct Stack {
  boost::context::detail::fcontext_t context = nullptr; // saved when not running
  void *mapping = nullptr;       // mmap'd region; null for a native stack
  std::size_t mapping_bytes = 0;
  Worker *home = nullptr;        // native stack: the only thread that may run it
  Frame *resumed_frame = nullptr; // slow clone this stack's scheduler is running
  std::uint32_t resumed_segment = 0; // which of its strands (views.h)
  Stack *next_free = nullptr;
  Worker *taken_by = nullptr;     // fiber stack: the worker it counts against
  void *tsan_fiber = nullptr;     // ThreadSanitizer's handle for this stack
  const void *bottom = nullptr;   // lowest usable address, for AddressSanitizer
  std::size_t size = 0;
  void *asan_fake_stack = nullptr;
};

enum class PendingAction {
  None,
  PublishPark, // the stack left holds a fast clone parked on pending_frame
  Recycle,     // the stack left is an idle scheduler fiber
};

/// Describes the calling thread's own stack; it runs only on this thread.
Stack *adopt_native_stack(Worker *Home);
/// Sets \p S's bounds and sanitizer handle to the stack the calling thread
/// runs on now: its own, or main's (main_stack.h).
void describe_native_stack(Stack *S);
/// Maps \p Usable bytes of stack (lazily committed) above a guard page;
/// returns the lowest usable address, or null when the address space has
/// no room (ulimit -v). The mapping starts one page below it.
char *map_guarded_stack(std::size_t Usable);
/// Creates a fiber stack whose first activation runs the scheduler loop.
Stack *create_scheduler_stack();
/// A scheduler fiber for \p W to switch to: one from its free list, or a
/// new one. take_first_stack() is a pool thread's first, counted when the
/// pool started; take_park_stack() is for a park, paid for by the credit
/// of the steal that caused it (stack_budget.h).
Stack *take_first_stack(Worker *W);
Stack *take_park_stack(Worker *W);
/// Releases a fiber stack that is not running and holds no live frames.
void destroy_stack(Stack *S);

/// Switches the calling worker to \p To; returns when some worker switches
/// back to the current stack (possibly on another thread).
void switch_to(Stack *To, PendingAction Action, Frame *F = nullptr);

} // namespace weft

#endif // WEFT_RUNTIME_STACK_H
