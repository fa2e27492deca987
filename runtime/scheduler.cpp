//===- scheduler.cpp - Randomized work stealing and the scheduler loop ----===//
//
// Every fiber stack starts here. The loop serves, in order: a frame whose
// sync was satisfied by a child this worker finished, a parked stack whose
// frame this worker completed, this thread's own native stack if it became
// runnable elsewhere, then steals from a random victim. Only the steal
// needs a credit from the bound on stacks (stack_budget.h); everything
// before it runs on stacks that exist. A worker with nothing to do spins
// briefly, yields, then sleeps (worker.cpp).
//
//===----------------------------------------------------------------------===//

#include "config.h"
#include "fence.h"
#include "occupancy.h"
#include "stack_budget.h"
#include "worker.h"

#include <ctime>
#include <sched.h>

namespace weft {
namespace {

// Back-off of a worker whose rounds of steals fail (backOff()). New work
// often appears within microseconds (a victim's next push, the next of a
// program's many short loops), so the first rounds spin, with the core
// kept: 256 spins of 8 pause instructions, some 2,000 pauses in all (tens
// of microseconds). Each spin is short, so that a thief looks again within
// a fraction of a microsecond of new work: with spins of 64 pauses (1 to
// 2 us on this project's AMD VM, where a pause is ~65 cycles) rounds of
// short loops at P=2 ran 3% slower than with 8 (docs/benchmarks.md,
// "Fences"). Then the worker yields the core to the program's other
// threads, and at last it sleeps, giving up its stack credit, so that an
// idle pool costs no CPU.
constexpr unsigned kSpinningRounds = 256;
constexpr unsigned kPausesPerSpin = 8;
constexpr unsigned kRoundsBeforeSleep = kSpinningRounds + 32; // then sleep
/// How long a thief waits for a stack to come back (waitForStackCredit()):
/// far shorter than a sleep, since one may come back at any moment, long
/// enough that the workers that own the work get the cores.
constexpr long kStackCreditWaitNs = 50 * 1000;

std::uint64_t nextRandom(Worker *W) {
  // xorshift64*: per-worker state, no shared cache line.
  std::uint64_t X = W->rng_state;
  X ^= X >> 12;
  X ^= X << 25;
  X ^= X >> 27;
  W->rng_state = X;
  return X * 0x2545F4914F6CDD1Dull;
}

/// Steals a frame; \p Segment gets the number of the strand the steal
/// starts (views.h).
Frame *trySteal(Worker *W, std::uint32_t &Segment) {
  unsigned N = worker_count();
  if (N < 2)
    return nullptr;
  bool Waiting = false; // for an owner to answer a request (deque.h)
  for (unsigned Try = 0; Try < 2 * N; ++Try) {
    Worker *Victim = worker_at(static_cast<unsigned>(nextRandom(W) % N));
    if (!Victim || Victim == W)
      continue;
    W->stats.steal_attempts.add();
    Frame *F = nullptr;
    StealResult Result = Victim->deque.steal(F, W->thief);
    Waiting = Waiting || Result == StealResult::Requested;
    if (Result == StealResult::Success) {
      // We own F now: its previous owner only touches join and park. A
      // frame stolen for the first time was pushed by a fast clone, which
      // parks when its child returns; the park's stack is paid for by our
      // credit. A slow clone's frame (stolen before) causes no park.
      if (!F->stolen)
        hand_credit_to_park(W);
      F->stolen = 1;
      Segment = ++F->steals;
      W->stats.steals.add();
      return F;
    }
  }
  if (!Waiting)
    W->thief.settled();
  return nullptr;
}

/// A spinning thief's pause. On AArch64 an instruction barrier, not
/// `yield`: without SMT (nearly every Arm server) `yield` is a no-op that
/// the front end drops, so a spin of kPausesPerSpin of them would last a
/// few nanoseconds where x86's pauses last a microsecond; `isb` stalls the
/// front end until the pipeline drains, tens of cycles, as Rust's
/// spin_loop() and Go's procyield do there.
void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("isb sy");
#endif
}

/// Backs off after a failed round of steals: spin, then yield, then sleep.
void backOff(Worker *W, unsigned &Failures) {
  ++Failures;
  if (Failures < kSpinningRounds) {
    for (unsigned I = 0; I < kPausesPerSpin; ++I)
      cpuRelax();
  } else if (Failures < kRoundsBeforeSleep || config().stress) {
    sched_yield();
  } else {
    return_stack_credit(W);
    idle_sleep(W);
  }
}

/// Stealing now could need a stack beyond the bound (stack_budget.h): the
/// workers that own the work go on alone until parks end and their stacks
/// come back. Sleeping, not spinning, leaves them the cores; the pause is
/// short, since a stack may come back at any moment.
void waitForStackCredit(Worker *W) {
  W->stats.throttled.add();
  W->activity.store(Activity::Throttled, std::memory_order_relaxed);
  timespec Pause{0, kStackCreditWaitNs};
  nanosleep(&Pause, nullptr);
}

/// \p W leaves the scheduler loop for program code: \p SlowClone's, or a
/// resumed stack's (null). Told to the hang watchdog (hang_watch.h).
void enterProgram(Worker *W, const void *SlowClone) {
  W->scheduler_events.add();
  W->running_code.store(SlowClone, std::memory_order_relaxed);
  W->activity.store(Activity::Running, std::memory_order_relaxed);
}

template <typename T> T *take(T *&Slot) {
  T *V = Slot;
  Slot = nullptr;
  return V;
}

} // namespace

void run_frame(Worker *W, Frame *F, std::uint32_t Segment) {
  Stack *S = W->current_stack;
  S->resumed_frame = F;
  S->resumed_segment = Segment;
  enterProgram(W, reinterpret_cast<const void *>(F->slowClone()));
  F->resume();
  // The slow clone may have parked and resumed this stack on another
  // thread; S is this stack's own record, wherever it runs now.
  S->resumed_frame = nullptr;
}

void make_ready(Worker *W, Stack *S) {
  note_unparked();
  if (S->home && S->home != W) {
    // Release pairs with the home thread's acquire exchange: the frame's
    // result is visible before its native stack runs again.
    S->home->home_ready.store(S, std::memory_order_release);
    wake_all();
    return;
  }
  W->ready_stack = S;
}

void scheduler_loop() {
  unsigned Failures = 0;
  for (;;) {
    Worker *W = current_worker();
    W->activity.store(Activity::Looking, std::memory_order_relaxed);
    if (Frame *F = take(W->ready_frame)) {
      // After its sync: one strand again, with the views of all of them.
      W->views = take_views(F);
      run_frame(W, F, /*Segment=*/0);
      Failures = 0;
      continue;
    }
    if (Stack *S = take(W->ready_stack)) {
      enterProgram(W, nullptr);
      switch_to(S, PendingAction::Recycle);
      Failures = 0;
      continue;
    }
    if (Stack *S = W->home_ready.exchange(nullptr, std::memory_order_acquire)) {
      enterProgram(W, nullptr);
      switch_to(S, PendingAction::Recycle);
      Failures = 0;
      continue;
    }
    if (shutting_down() && !W->external) {
      switch_to(W->native_stack, PendingAction::Recycle);
      continue;
    }
    if (!take_stack_credit(W)) {
      waitForStackCredit(W);
      continue;
    }
    std::uint32_t Segment;
    if (Frame *F = trySteal(W, Segment)) {
      // A new strand, to the right of every other: no views yet.
      W->views = StrandViews::stolen();
      run_frame(W, F, Segment);
      Failures = 0;
      continue;
    }
    backOff(W, Failures);
  }
}

} // namespace weft
