//===- sim_schedule.h - A discrete-time model of Weft's work stealing -----===//
//
// Runs a sim::Program on P simulated workers in lock step, single-threaded
// and deterministic for a given seed. Each worker owns a weft::Deque, the
// runtime's own, used by one thread. In every step each worker, in worker
// order, does exactly one of:
//   - run one instruction of its current activation (sim_program.h): a
//     unit of work, a spawn, a call, a sync, or a return;
//   - try one steal from a victim chosen uniformly at random among the
//     other workers (a steal attempt takes the whole step, successful or
//     not; the thief runs the continuation from the next step on);
//   - help-first only: start a child from its own deque.
//
// The work-first policy is Weft's (docs/architecture.md §4): a spawn
// pushes the parent's continuation and runs the child; a child's return
// takes the continuation back, or, if a thief took it, counts the child
// done and leaves the worker idle; a sync with stolen children outstanding
// leaves the worker idle, and the worker whose return completes the last
// child resumes the frame, whose sync runs again in the next step. A
// called child returns to its caller on whichever worker finishes it (a
// parked stack resuming on the worker that completes the frame). The
// other policies are deliberately wrong, for the test's self-check. Under
// them a worker may go idle with continuations still on its deque; as in
// Weft, it then steals, and they wait for other thieves.
//
// The one departure from Weft: main's native stack resumes on any worker
// here, not only on its own thread, which moves no more than the root's
// last steps.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TEST_SIM_SCHEDULE_H
#define WEFT_TEST_SIM_SCHEDULE_H

#include "sim_program.h"

#include <cstdint>

namespace sim {

enum class Policy {
  WorkFirst,       // Weft: push the continuation, thieves take the oldest
  StealFromBottom, // wrong: thieves take the newest continuation
  HelpFirst,       // wrong: push the child, the parent goes on
  FixedVictim,     // wrong: every thief asks worker 0 (worker 1 asks 1)
};

struct RunStats {
  std::int64_t steps = 0;        // T_P: steps until the root returned
  std::int64_t attempts = 0;     // steal attempts, successful or not
  std::int64_t steals = 0;       // attempts that took a continuation or task
  std::int64_t failed_syncs = 0; // syncs (and returns) that found children out
  std::int64_t local_takes = 0;  // help-first: children taken from its own deque
  std::int64_t idle_at_end = 0;  // worker-steps of the last step not used
  std::int64_t instructions = 0; // must equal T1
  std::int64_t max_deque = 0;    // most elements on one deque at once
  std::int64_t deque_peak = 0;   // the largest Deque::peak_size() (cross-check)
  std::int64_t max_frames = 0;   // most activations alive at once
  std::int64_t anomalies = 0;    // work-first invariants that did not hold
};

/// Runs \p Prog on \p Workers workers; \p Seed drives victim selection.
RunStats simulate(const Program &Prog, int Workers, std::uint64_t Seed,
             Policy How = Policy::WorkFirst);

} // namespace sim

#endif // WEFT_TEST_SIM_SCHEDULE_H
