//===- stack_budget.h - The bound on fiber stacks in use ------------------===//
//
// Fiber stacks come from parks, and parks from steals: the first steal of
// a frame that a fast clone pushed makes that fast clone park its stack
// when its child returns, and the worker that parks takes another stack to
// go on with. Along a chain of ordinary calls each such steal keeps one more
// stack parked until the chain unwinds, so unbounded, the stacks in use
// grow with the steals, not with P (lit-tests/run/fiber_stacks_*.cpp).
//
// The budget bounds them as Cilk Plus did: a thief steals only while it
// holds a credit, one stack's worth of the bound. A first steal hands the
// credit on to the park it will cause, which takes its stack with it; any
// other steal keeps it. So every park finds its stack within the bound, and
// when the bound is reached thieves wait until stacks come back: only
// parallelism is lost, never progress (docs/architecture.md, §4).
//
// What is counted: fiber stacks in use (occupancy.h: taken, not yet back on
// a free list), plus credits held by thieves, plus credits handed to parks
// that have not taken their stack yet. A pool thread's first stack is in
// use without a credit, counted when the pool starts, before any thread
// that could take a credit exists; each worker's free list keeps at most
// kFreeStacksKept stacks besides (stack.cpp unmaps the rest).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_STACK_BUDGET_H
#define WEFT_RUNTIME_STACK_BUDGET_H

#include "cache_line.h"

#include <atomic>
#include <cstdint>

namespace weft {

struct Worker;

/// Idle stacks a worker keeps for reuse; it unmaps the ones beyond.
inline constexpr unsigned kFreeStacksKept = 4;

/// The bound when WEFT_MAX_STACKS is unset: 16 stacks per worker, so
/// ordinary programs (a few stacks per worker at their peak) never reach it.
inline constexpr std::int64_t kDefaultStacksPerWorker = 16;

/// A count against a limit; the runtime has one (stack_budget()), tests
/// make their own.
///
/// Every access is relaxed. The count carries no data: a credit only says
/// "one stack more is allowed", and the stack itself is handed over by the
/// park word and the switch protocol, which order its memory. What the
/// bound needs is that no two reservations both see room for the last
/// unit, and that holds in the count's single modification order, which
/// every read-modify-write reads the newest value of. A release always
/// happens after the increment it gives back (by program order, or through
/// the steal and park handoffs), so coherence keeps it later in that order
/// too and the count never goes below zero.
class StackBudget {
public:
  explicit StackBudget(std::int64_t Limit) : Max(Limit) {}

  /// Takes one unit if the count is below the limit.
  bool tryReserve() {
    std::int64_t Now = Used.load(std::memory_order_relaxed);
    while (Now < Max.load(std::memory_order_relaxed))
      if (Used.compare_exchange_weak(Now, Now + 1, std::memory_order_relaxed))
        return true;
    return false;
  }
  /// Takes one unit whatever the limit: a stack that must exist.
  void addUnreserved() { Used.fetch_add(1, std::memory_order_relaxed); }
  /// Gives one unit back.
  void release() { Used.fetch_sub(1, std::memory_order_relaxed); }

  /// Later reservations see the new limit; units taken stay taken.
  void setLimit(std::int64_t Limit) {
    Max.store(Limit, std::memory_order_relaxed);
  }
  std::int64_t limit() const { return Max.load(std::memory_order_relaxed); }
  std::int64_t used() const { return Used.load(std::memory_order_relaxed); }

private:
  // Its own cache line: thieves write it, the owner of the work never does
  // on its spawn path.
  alignas(kCacheLineBytes) std::atomic<std::int64_t> Used{0};
  std::atomic<std::int64_t> Max;
};

/// The process's budget. Its limit is WEFT_MAX_STACKS, or
/// kDefaultStacksPerWorker per worker, set when the pool starts.
StackBudget &stack_budget();
/// Sets the process's limit for a pool of \p Workers, and counts the first
/// stacks of its Workers - 1 pool threads as in use from now on.
void start_stack_budget(unsigned Workers);

/// Whether \p W may steal: it holds a credit, or takes one now.
bool take_stack_credit(Worker *W);
/// \p W stole a frame that its fast clone pushed: the fast clone will park,
/// and W's credit pays for the stack that park takes.
void hand_credit_to_park(Worker *W);
/// \p W is about to sleep: its credit goes back, so awake thieves can use it.
void return_stack_credit(Worker *W);

} // namespace weft

#endif // WEFT_RUNTIME_STACK_BUDGET_H
