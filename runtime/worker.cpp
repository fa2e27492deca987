//===- worker.cpp - Worker registry, pool start-up, sleep and shutdown ----===//

#include "worker.h"

#include "callbacks.h"
#include "config.h"
#include "fence.h"
#include "hang_watch.h"
#include "stack_budget.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <linux/futex.h>
#include <mutex>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace weft {

namespace detail {
UnownedWorker NoWorker;
// Constant-initialized, so that a spawn in a static constructor that runs
// before NoWorker's finds zeros there, which refuse the push just as well.
__thread Worker *ThreadWorker = &NoWorker.W;
std::atomic<unsigned> PushHooks{0};
} // namespace detail

using detail::PushHooks;
using detail::ThreadWorker;

namespace {

// Slots are published once and never reused; a thief reads the count with
// acquire, which pairs with the release increment after the slot is set.
std::atomic<Worker *> Slots[kMaxWorkers];
std::atomic<unsigned> SlotCount{0};
std::atomic<unsigned> SlotsClaimed{0};

std::once_flag PoolStarted;
std::vector<std::thread> *PoolThreads = nullptr;
std::atomic<bool> ShutdownFlag{false};

// Idle workers sleep on WakeEpoch. A sleeper announces itself in
// detail::PushHooks (the sleeper count in its low bits) before its last
// look for work; a producer that sees a sleeper bumps the epoch and wakes
// one. See idle_sleep() for why no
// wake-up is lost.
std::atomic<std::uint32_t> WakeEpoch{0};

/// The longest an idle worker sleeps before it looks for work again. It
/// bounds the delay of a wake-up lost where the fence is a plain one
/// (idle_sleep()): short enough that a program hardly notices, long enough
/// that an idle pool's looks cost no measurable CPU.
constexpr long kIdleSleepNs = 5 * 1000 * 1000;

/// Each worker's victim-selection state (scheduler.cpp) starts at its slot
/// number plus one times 2^64 / golden ratio: the multiples of an odd
/// constant are distinct and nonzero, as xorshift needs, and this one's
/// spread their bits over the whole word.
constexpr std::uint64_t kRngSeedStep = 0x9E3779B97F4A7C15ull;

long futex(std::atomic<std::uint32_t> *Word, int Op, std::uint32_t Val,
           const timespec *Timeout) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(Word), Op, Val,
                 Timeout, nullptr, 0);
}

Worker *claimSlot(bool External) {
  unsigned Id = SlotsClaimed.fetch_add(1, std::memory_order_relaxed);
  if (Id >= kMaxWorkers) {
    std::fprintf(stderr, "weft: more than %u threads entered Weft\n",
                 kMaxWorkers);
    std::abort();
  }
  auto *W = new Worker();
  W->id = Id;
  W->external = External;
  // A pool thread only runs strands that steals start (scheduler.cpp);
  // an external thread's first strand is the leftmost.
  if (!External)
    W->views = StrandViews::stolen();
  W->rng_state = kRngSeedStep * (Id + 1);
  Slots[Id].store(W, std::memory_order_release);
  // Publish in slot order so [0, SlotCount) is always fully initialised.
  unsigned Expected = Id;
  while (!SlotCount.compare_exchange_weak(Expected, Id + 1,
                                          std::memory_order_release,
                                          std::memory_order_relaxed))
    Expected = Id;
  return W;
}

void adoptNativeStack(Worker *W) {
  Stack *Native = adopt_native_stack(W);
  W->native_stack = Native;
  W->current_stack = Native;
  ThreadWorker = W;
}

void workerThreadMain(Worker *W) {
  adoptNativeStack(W);
  // The native stack of a pool thread only waits for shutdown; all work
  // runs on fibers, which may migrate between threads.
  switch_to(take_first_stack(W), PendingAction::None);
  while (Stack *S = W->free_stacks) {
    W->free_stacks = S->next_free;
    destroy_stack(S);
  }
}

void shutdownPool() {
  run_exit_callbacks(); // while the workers still run
  ShutdownFlag.store(true, std::memory_order_release);
  wake_all();
  Worker *Self = current_worker();
  for (std::thread &T : *PoolThreads) {
    // exit() called from inside a task: its thread cannot be joined.
    if (Self && !Self->external)
      T.detach();
    else if (T.joinable())
      T.join();
  }
  if (config().stats)
    print_stats();
}

/// Starts the pool with the worker count fixed now, and returns slot 0 for
/// the calling thread: worker numbers 0 to P-1 are the caller's and the
/// pool's (weft/api.h), even when other threads enter at the same time.
Worker *startPool() {
  fences_init();
  unsigned Count = nworkers_setting().fix();
  start_counting_spawns_if_read();
  // Before any thread that could steal exists; their start orders it.
  start_stack_budget(Count);
  Worker *Caller = claimSlot(/*External=*/true);
  PoolThreads = new std::vector<std::thread>();
  for (unsigned I = 1; I < Count; ++I) {
    Worker *W = claimSlot(/*External=*/false);
    PoolThreads->emplace_back(workerThreadMain, W);
  }
  std::atexit(shutdownPool);
  start_hang_watch();
  return Caller;
}

bool workVisible(Worker *Self) {
  if (Self->home_ready.load(std::memory_order_acquire) || shutting_down())
    return true;
  unsigned N = worker_count();
  for (unsigned I = 0; I < N; ++I)
    if (Worker *W = worker_at(I); W && W != Self && W->deque.maybe_nonempty())
      return true;
  return false;
}

} // namespace

// A caller may read it again after a stack switch that moved it to
// another thread. On x86-64 each read loads the thread's segment base
// afresh, so it may be inlined (and is, where it pays: a call here made
// fib 25% slower at P=2). Where the thread pointer is a register
// (AArch64's tpidr_el0), the compiler would keep the first read of an
// inlined copy across the switch, so it is never inlined there.
#if defined(__x86_64__)
#define WEFT_THREAD_POINTER_ATTRS
#else
#define WEFT_THREAD_POINTER_ATTRS __attribute__((noinline))
#endif
WEFT_THREAD_POINTER_ATTRS Worker *current_worker() {
  asm volatile("" ::: "memory");
  return thread_worker_or_null();
}

Worker *current_or_new_worker() {
  if (Worker *W = current_worker())
    return W;
  // An external thread: the one that starts the pool gets slot 0; a later
  // one (or one that waited here for that start) the next free slot.
  Worker *W = nullptr;
  std::call_once(PoolStarted, [&W] { W = startPool(); });
  bool Starter = W != nullptr;
  if (!W)
    W = claimSlot(/*External=*/true);
  adoptNativeStack(W);
  // Outside the call_once, and with this thread a worker: a callback may
  // spawn.
  if (Starter)
    run_start_callbacks();
  return W;
}

unsigned worker_count() { return SlotCount.load(std::memory_order_acquire); }

Worker *worker_at(unsigned I) {
  return Slots[I].load(std::memory_order_acquire);
}

bool shutting_down() { return ShutdownFlag.load(std::memory_order_acquire); }

void wake_one_if_sleeping() {
  // Relaxed is enough: a sleeper that this load misses has, by the
  // asymmetric fence in idle_sleep(), seen the push that preceded it.
  if ((PushHooks.load(std::memory_order_relaxed) & detail::SleeperMask) == 0)
    return;
  WakeEpoch.fetch_add(1, std::memory_order_release);
  futex(&WakeEpoch, FUTEX_WAKE_PRIVATE, 1, nullptr);
}

void wake_all() {
  WakeEpoch.fetch_add(1, std::memory_order_release);
  futex(&WakeEpoch, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr);
}

void idle_sleep(Worker *W) {
  std::uint32_t Epoch = WakeEpoch.load(std::memory_order_acquire);
  PushHooks.fetch_add(1, std::memory_order_seq_cst);
  // Dekker with the producer's `store bottom; load PushHooks`: after this
  // fence either the producer sees a sleeper and wakes us, or we see its
  // push in workVisible(). The timeout only bounds the cost of a wake-up
  // lost where the fence is a plain one (symmetric mode).
  heavy_fence();
  if (membarrier_available())
    W->stats.idle_membarriers.add();
  if (!workVisible(W)) {
    W->stats.sleeps.add();
    W->activity.store(Activity::Sleeping, std::memory_order_relaxed);
    timespec Timeout{0, kIdleSleepNs};
    futex(&WakeEpoch, FUTEX_WAIT_PRIVATE, Epoch, &Timeout);
    W->activity.store(Activity::Looking, std::memory_order_relaxed);
  }
  PushHooks.fetch_sub(1, std::memory_order_relaxed);
}

} // namespace weft
