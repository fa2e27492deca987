//===- stack_budget.cpp - Credits for the stacks that steals cause --------===//
//
// A worker's credit is owner-private (Worker::stack_credit): only the worker
// itself takes, spends or returns it, so the flag needs no atomics; the
// budget's count is what other workers see.
//
//===----------------------------------------------------------------------===//

#include "stack_budget.h"

#include "config.h"
#include "worker.h"

namespace weft {

StackBudget &stack_budget() {
  // No limit until the pool starts: nothing steals before then.
  static StackBudget Budget(INT64_MAX);
  return Budget;
}

void start_stack_budget(unsigned Workers) {
  std::int64_t Limit = config().max_stacks;
  if (Limit == 0)
    Limit = kDefaultStacksPerWorker * Workers;
  stack_budget().setLimit(Limit);
  // Counted now rather than when each thread starts: a thread that starts
  // late would otherwise add its stack on top of credits already granted,
  // past the bound.
  for (unsigned I = 1; I < Workers; ++I)
    stack_budget().addUnreserved();
}

bool take_stack_credit(Worker *W) {
  if (!W->stack_credit)
    W->stack_credit = stack_budget().tryReserve();
  return W->stack_credit;
}

void hand_credit_to_park(Worker *W) {
  // The unit stays counted: the park's stack takes it over (stack.cpp,
  // take_park_stack), and gives it back when the stack is recycled.
  W->stack_credit = false;
}

void return_stack_credit(Worker *W) {
  if (W->stack_credit)
    stack_budget().release();
  W->stack_credit = false;
}

} // namespace weft
