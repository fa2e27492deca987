//===- occupancy.h - Fiber stacks in use and parked stacks, and their peaks ===//
//
// What the runtime holds at once, for WEFT_STATS (stats.cpp): fiber stacks
// in use, overall and per worker, and stacks parked behind a stolen frame.
// Every event counted here is on the steal path (a park, a recycled
// scheduler fiber, a pool thread's start), never on a spawn's.
//
// A fiber stack is in use from the moment a worker takes it (creates it or
// reuses one from its free list) until some worker puts it back on a free
// list. Per worker, a stack counts against the worker that took it, even
// while it runs or parks elsewhere; the per-worker counts add up to the
// overall one. A parked stack (native or fiber) is one whose fast clone
// waits for its stolen frame to complete. A mapped stack is one created and
// not yet unmapped: in use, or idle on a free list.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_OCCUPANCY_H
#define WEFT_RUNTIME_OCCUPANCY_H

#include <cstdint>

namespace weft {

struct Stack;
struct Worker;

/// \p W has taken fiber stack \p S to run on.
void note_stack_taken(Worker *W, Stack *S);
/// The fiber stack \p S went back to a free list (on any worker).
void note_stack_returned(Stack *S);

/// A fiber stack was mapped; note_stack_unmapped() when it is unmapped.
void note_stack_mapped();
void note_stack_unmapped();

/// A stack was parked behind a stolen frame; note_unparked() when it is
/// made runnable again.
void note_parked();
void note_unparked();

/// The most fiber stacks in use at once, and the most stacks parked at
/// once, since the program started.
std::uint64_t peak_stacks_in_use();
std::uint64_t peak_parked_stacks();
/// The most fiber stacks mapped at once.
std::uint64_t peak_stacks_mapped();
/// Fiber stacks in use now, and stacks parked now, for an error message
/// or a hang report.
std::int64_t stacks_in_use();
std::int64_t parked_stacks_now();

} // namespace weft

#endif // WEFT_RUNTIME_OCCUPANCY_H
