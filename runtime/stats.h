//===- stats.h - Per-worker scheduling counters ---------------------------===//
//
// Each worker counts its own events on its own cache lines; only the owner
// writes (relaxed load + store, no read-modify-write on the spawn path), and
// the totals are read after the workers have stopped. The peaks come from
// where they are kept: each deque's (deque.h) and occupancy.h's.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_STATS_H
#define WEFT_RUNTIME_STATS_H

#include "weft/api.h"

#include <atomic>
#include <cstdint>

namespace weft {

struct Counter {
  std::atomic<std::uint64_t> value{0};
  void add(std::uint64_t N = 1) {
    value.store(value.load(std::memory_order_relaxed) + N,
                std::memory_order_relaxed);
  }
  std::uint64_t get() const { return value.load(std::memory_order_relaxed); }
};

/// The largest value one writer has seen; as Counter, relaxed throughout.
struct Peak {
  std::atomic<std::uint64_t> value{0};
  void raise(std::uint64_t V) {
    if (V > value.load(std::memory_order_relaxed))
      value.store(V, std::memory_order_relaxed);
  }
  std::uint64_t get() const { return value.load(std::memory_order_relaxed); }
};

struct WorkerStats {
  Counter spawns;         // frames pushed, while counted (stats_api.cpp)
  Counter steals;         // successful steals
  Counter steal_attempts; // steal calls on a victim
  Counter parks;          // fast clones that parked their stack
  Counter stacks;         // fiber stacks created
  Counter sleeps;         // times the worker went to sleep
  Counter throttled;      // times it did not steal: no stack credit left
  Counter idle_membarriers; // membarriers before going to sleep (worker.cpp)
  Peak peak_stacks;       // most fiber stacks taken by this worker in use at
                          // once (occupancy.h)
};

/// Called as the pool starts: counts spawns from then on, if anything will
/// read the count (WEFT_STATS=1, the hang watch, weft_get_stats()). Other
/// programs' spawns count nothing: stats_api.cpp says why.
void start_counting_spawns_if_read();

/// The counters summed over all workers, as weft_get_stats() reports them.
void collect_stats(weft_stats &Out);

/// Prints the `weft-stats:` line summed over all workers.
void print_stats();

} // namespace weft

#endif // WEFT_RUNTIME_STATS_H
