//===- stats.h - Per-worker scheduling counters ---------------------------===//
//
// Each worker counts its own events on its own cache lines; only the owner
// writes (relaxed load + store, no read-modify-write on the spawn path), and
// the totals are read after the workers have stopped.
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

struct WorkerStats {
  Counter spawns;         // frames pushed
  Counter steals;         // successful steals
  Counter steal_attempts; // steal calls on a victim
  Counter parks;          // fast clones that parked their stack
  Counter stacks;         // fiber stacks created
  Counter sleeps;         // times the worker went to sleep
};

/// The counters summed over all workers, as weft_get_stats() reports them.
void collect_stats(weft_stats &Out);

/// Prints the `weft-stats:` line summed over all workers.
void print_stats();

} // namespace weft

#endif // WEFT_RUNTIME_STATS_H
