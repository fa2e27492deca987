//===- stats.cpp - The weft-stats line ------------------------------------===//
//
// Totals summed over the workers, then the peaks: the largest of the
// workers' (peak_frames), the process-wide ones (peak_stacks, peak_parked),
// and each worker's own, in worker-number order (the *_per_worker lists);
// then the bound on stacks and what it did (max_stacks, peak_mapped,
// throttled); then what the fences cost (membarriers, and the requests and
// switches of adaptive deques, deque.h).
//
//===----------------------------------------------------------------------===//

#include "stats.h"

#include "config.h"
#include "fence.h"
#include "occupancy.h"
#include "stack_budget.h"
#include "worker.h"

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <string>

/// Defined by stats_api.cpp, in the programs that call weft_get_stats().
extern "C" void __weft_stats_api_linked(void) __attribute__((weak));

namespace weft {
namespace {

/// Worker I's peaks, as the *_per_worker lists print them.
std::uint64_t peakFramesOf(unsigned I) {
  return static_cast<std::uint64_t>(worker_at(I)->deque.peak_size());
}
std::uint64_t peakStacksOf(unsigned I) {
  return worker_at(I)->stats.peak_stacks.get();
}

/// The default fence policy, as fences= prints it (WEFT_FENCES's words
/// for what they choose; "adaptive" is what auto chooses with membarrier).
const char *fencePolicyName() {
  switch (default_fence_policy()) {
  case FencePolicy::Adaptive:
    return "adaptive";
  case FencePolicy::Fenced:
    return "symmetric";
  case FencePolicy::Unfenced:
    return "asymmetric";
  }
  return "?";
}

/// " Key=v0,v1,..." with Value(I) for each of the \p Threads workers.
template <typename ValueOf>
std::string perWorkerList(const char *Key, unsigned Threads, ValueOf Value) {
  std::string Out = std::string(" ") + Key + "=";
  for (unsigned I = 0; I < Threads; ++I) {
    if (I)
      Out += ',';
    Out += std::to_string(Value(I));
  }
  return Out;
}

/// With WEFT_STATS=1 the line is printed at exit by the pool's shutdown
/// (worker.cpp) when the pool ran, and here when it never started, so that
/// a program someone expected to run in parallel says spawns=0 at once.
/// Registered before main, so it runs after the pool's shutdown, which
/// registers when the pool starts.
void printIfPoolNeverStarted() {
  if (worker_count() == 0 && config().stats)
    print_stats();
}

[[maybe_unused]] const int RegisteredAtExit =
    std::atexit(printIfPoolNeverStarted);

} // namespace

/// The drivers, the CMake package and weft.pc link with
/// -Wl,--undefined=__weft_link_runtime, which pulls this file, and so the
/// line above, into every program they link, whether it spawns or not.
extern "C" void __weft_link_runtime(void) {}

void start_counting_spawns_if_read() {
  if (config().stats || config().debug_hang_seconds != 0 ||
      __weft_stats_api_linked)
    // Relaxed: this runs as the pool starts, before any push returns; every
    // push afterwards happens after it (the thread creation or the
    // call_once that gave its thread a worker).
    detail::PushHooks.fetch_or(detail::CountBit, std::memory_order_relaxed);
}

void collect_stats(weft_stats &Out) {
  Out = weft_stats{};
  Out.workers = nworkers_setting().get();
  Out.threads = worker_count();
  for (unsigned I = 0; I < Out.threads; ++I) {
    const Worker *W = worker_at(I);
    const WorkerStats &S = W->stats;
    Out.spawns += S.spawns.get();
    Out.steals += S.steals.get();
    Out.steal_attempts += S.steal_attempts.get();
    Out.parks += S.parks.get();
    Out.stacks += S.stacks.get();
    Out.sleeps += S.sleeps.get();
    Out.throttled += S.throttled.get();
    Out.membarriers += W->thief.membarriers() + S.idle_membarriers.get();
    Out.fence_requests += W->thief.requests();
    Out.fenced_switches += W->deque.switches_to_fenced();
    Out.unfenced_switches += W->deque.switches_to_unfenced();
    Out.peak_frames = std::max(Out.peak_frames, peakFramesOf(I));
  }
  Out.peak_stacks = peak_stacks_in_use();
  Out.peak_parked = peak_parked_stacks();
  // The bound is set when the pool starts; before, there is none to show.
  Out.max_stacks = Out.threads == 0 ? 0 : static_cast<std::uint64_t>(
                                              stack_budget().limit());
  Out.peak_mapped = peak_stacks_mapped();
}

void print_stats() {
  weft_stats Sum;
  collect_stats(Sum);
  std::string PerWorker =
      perWorkerList("peak_frames_per_worker", Sum.threads, peakFramesOf) +
      perWorkerList("peak_stacks_per_worker", Sum.threads, peakStacksOf);
  // The program's own output comes first, even when stdout is a pipe whose
  // buffer would otherwise be flushed after this line.
  std::fflush(stdout);
  std::fprintf(stderr,
               "weft-stats: workers=%u threads=%u spawns=%llu steals=%llu "
               "steal_attempts=%llu parks=%llu stacks=%llu sleeps=%llu "
               "fences=%s peak_frames=%llu peak_stacks=%llu "
               "peak_parked=%llu%s max_stacks=%llu peak_mapped=%llu "
               "throttled=%llu membarriers=%llu fence_requests=%llu "
               "fenced_switches=%llu unfenced_switches=%llu\n",
               Sum.workers, Sum.threads, (unsigned long long)Sum.spawns,
               (unsigned long long)Sum.steals,
               (unsigned long long)Sum.steal_attempts,
               (unsigned long long)Sum.parks, (unsigned long long)Sum.stacks,
               (unsigned long long)Sum.sleeps,
               Sum.threads == 0 ? "none" : fencePolicyName(),
               (unsigned long long)Sum.peak_frames,
               (unsigned long long)Sum.peak_stacks,
               (unsigned long long)Sum.peak_parked, PerWorker.c_str(),
               (unsigned long long)Sum.max_stacks,
               (unsigned long long)Sum.peak_mapped,
               (unsigned long long)Sum.throttled,
               (unsigned long long)Sum.membarriers,
               (unsigned long long)Sum.fence_requests,
               (unsigned long long)Sum.fenced_switches,
               (unsigned long long)Sum.unfenced_switches);
}

} // namespace weft
