//===- worker.h - Workers: one deque, one thread, its mailboxes -----------===//
//
// A Worker is either a pool thread or an external thread (main, or any
// thread that calls a spawning function); both own a deque that thieves
// steal from. Owner-private state and the deque's owner end share the first
// cache lines; what other threads write (home_ready) sits on its own line,
// and each Worker is padded to a cache-line multiple so neighbours in the
// registry never share a line.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_WORKER_H
#define WEFT_RUNTIME_WORKER_H

#include "cache_line.h"
#include "deque.h"
#include "frame.h"
#include "hang_watch.h"
#include "stack.h"
#include "stats.h"
#include "views.h"

#include <atomic>
#include <cstdint>

namespace weft {

struct alignas(kCacheLineBytes) Worker {
  Deque<Frame *> deque;
  unsigned id = 0;
  bool external = false;
  std::uint64_t rng_state = 0;   // victim selection
  std::uint64_t stress_rng = 0;  // stress-mode decisions

  // Owner-private scheduling state.
  Stack *current_stack = nullptr;
  Stack *native_stack = nullptr;
  Stack *free_stacks = nullptr;  // idle scheduler fibers, ready for reuse
  unsigned free_count = 0;       // how many; at most kFreeStacksKept
  bool stack_credit = false;     // may steal (stack_budget.h)
  Frame *ready_frame = nullptr;  // resume next: its sync is now satisfied
  Stack *ready_stack = nullptr;  // switch to next: its frame completed
  PendingAction pending = PendingAction::None;
  Frame *pending_frame = nullptr;
  StrandViews views = StrandViews::leftmost(); // of the strand running here
  Thief thief;                   // this worker's side of its steals

  WorkerStats stats;
  // For the hang watchdog (hang_watch.h), written by the owner, relaxed:
  // what it does now, the slow clone it resumed last (null when it runs
  // something else), and its resumes and strand ends, which with the
  // deque's ends and the steal and park counts show that it moves.
  std::atomic<Activity> activity{Activity::Running};
  std::atomic<const void *> running_code{nullptr};
  Counter scheduler_events;

  // Written by other workers: a parked native stack of this thread that may
  // run again. Only this thread may run its native stack.
  alignas(kCacheLineBytes) std::atomic<Stack *> home_ready{nullptr};
  // Fiber stacks this worker took that are not back on a free list; any
  // worker that recycles one decrements it (occupancy.cpp).
  std::atomic<std::int64_t> stacks_taken{0};
};

namespace detail {
/// The calling thread's worker, or &NoWorker.W for a thread that never
/// entered Weft. Read directly only by the spawn path that the plugin
/// inlines into user code (fast_path.cpp), where the IR pass keeps every
/// read after a call that may have moved the stack to another thread; the
/// runtime itself goes through current_worker(), which says null.
extern __thread Worker *ThreadWorker;
/// What ThreadWorker points to before the thread's first spawn: a worker
/// no thread owns, whose deque refuses every push (its push limit is its
/// bottom, and neither ever moves), so that the inlined push tests no null
/// pointer: the refused push is the rare one, which registers the thread.
/// Never destroyed: a thread may spawn for the first time while exit
/// handlers run.
union UnownedWorker {
  Worker W;
  UnownedWorker() : W() {}
  ~UnownedWorker() {}
};
extern UnownedWorker NoWorker;
/// Why a push must call __weft_after_push(), in one word so that the
/// inlined push tests it with one load: the number of idle workers about
/// to sleep (worker.cpp, idle_sleep()), plus StressBit in stress mode, plus
/// CountBit while spawns are counted (stats.cpp,
/// start_counting_spawns_if_read()).
extern std::atomic<unsigned> PushHooks;
inline constexpr unsigned StressBit = 1u << 31;
inline constexpr unsigned CountBit = 1u << 30;
inline constexpr unsigned SleeperMask = CountBit - 1;
/// WEFT_STRESS=1: give thieves a window after each push (abi.cpp).
extern bool StressMode;
} // namespace detail

/// The calling thread's worker, or null if it never entered Weft, for
/// runtime code in which no stack switch can happen; elsewhere
/// current_worker().
inline Worker *thread_worker_or_null() {
  Worker *W = detail::ThreadWorker;
  return W == &detail::NoWorker.W ? nullptr : W;
}

/// Why the calling push must do more than push; none when 0: a worker
/// sleeps, stress mode is on, or spawns are counted. Relaxed: a sleeper
/// this load misses has seen the push, by the asymmetric fence in
/// idle_sleep(); the stress and count bits are set before the push that
/// starts the pool returns, and every other push happens after it.
inline unsigned push_hooks() {
  return detail::PushHooks.load(std::memory_order_relaxed);
}
inline bool push_needs_hooks() { return push_hooks() != 0; }

/// The worker of the calling thread, or null if it never entered Weft.
/// Not inlined, so no caller can cache the thread-local address across a
/// stack switch (a fiber may resume on another thread).
Worker *current_worker();
/// As current_worker(), registering the calling thread (and starting the
/// pool on first use) if needed.
Worker *current_or_new_worker();

/// Registry of all workers; slots [0, worker_count()) are published.
unsigned worker_count();
Worker *worker_at(unsigned I);

/// Sleep and wake-up of idle workers (worker.cpp).
void wake_one_if_sleeping();
void wake_all();
void idle_sleep(Worker *W);
bool shutting_down();

/// The scheduler loop run at the base of every fiber stack (scheduler.cpp).
[[noreturn]] void scheduler_loop();
/// Runs \p F's slow clone on the current stack, as strand \p Segment of
/// F's strands since its last sync (scheduler.cpp).
void run_frame(Worker *W, Frame *F, std::uint32_t Segment);
/// Makes a parked stack runnable (scheduler.cpp).
void make_ready(Worker *W, Stack *S);

} // namespace weft

#endif // WEFT_RUNTIME_WORKER_H
