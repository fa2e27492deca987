//===- occupancy.cpp - Fiber stacks in use and parked stacks, and their peaks //
//
// Counts rise and fall with relaxed read-modify-writes: each count's own
// modification order is the order of its events, and a peak is the largest
// value an increment produced. Nothing here orders other memory; whoever
// reads a peak reads it after the work that counted has joined.
//
//===----------------------------------------------------------------------===//

#include "occupancy.h"

#include "cache_line.h"
#include "stack.h"
#include "worker.h"

#include <atomic>

namespace weft {
namespace {

/// A process-wide count and its peak, on a cache line of their own.
struct alignas(kCacheLineBytes) CountWithPeak {
  std::atomic<std::int64_t> now{0};
  std::atomic<std::int64_t> peak{0};

  void up() {
    // Relaxed: see the file header. The value returned is this count's
    // value right after the increment, so the peak misses no maximum.
    raise(now.fetch_add(1, std::memory_order_relaxed) + 1);
  }
  void down() { now.fetch_sub(1, std::memory_order_relaxed); }

  void raise(std::int64_t Value) {
    std::int64_t Seen = peak.load(std::memory_order_relaxed);
    // Relaxed: the peak is a statistic and orders nothing.
    while (Value > Seen &&
           !peak.compare_exchange_weak(Seen, Value, std::memory_order_relaxed))
      ;
  }
};

CountWithPeak StacksInUse;
CountWithPeak ParkedStacks;
CountWithPeak MappedStacks;

} // namespace

void note_stack_taken(Worker *W, Stack *S) {
  S->taken_by = W;
  StacksInUse.up();
  // Relaxed: other workers only decrement, and only the owner reads the
  // result to raise its own peak (WorkerStats::peak_stacks).
  std::int64_t Mine =
      W->stacks_taken.fetch_add(1, std::memory_order_relaxed) + 1;
  W->stats.peak_stacks.raise(static_cast<std::uint64_t>(Mine));
}

void note_stack_returned(Stack *S) {
  StacksInUse.down();
  // Relaxed: as in note_stack_taken(). The increment happens before this
  // decrement (the stack ran in between, handed over by release/acquire
  // switches and park words), so the count never goes below zero.
  S->taken_by->stacks_taken.fetch_sub(1, std::memory_order_relaxed);
}

void note_stack_mapped() { MappedStacks.up(); }

void note_stack_unmapped() { MappedStacks.down(); }

void note_parked() { ParkedStacks.up(); }

void note_unparked() { ParkedStacks.down(); }

std::uint64_t peak_stacks_in_use() {
  return static_cast<std::uint64_t>(
      StacksInUse.peak.load(std::memory_order_relaxed));
}

std::uint64_t peak_parked_stacks() {
  return static_cast<std::uint64_t>(
      ParkedStacks.peak.load(std::memory_order_relaxed));
}

std::uint64_t peak_stacks_mapped() {
  return static_cast<std::uint64_t>(
      MappedStacks.peak.load(std::memory_order_relaxed));
}

std::int64_t stacks_in_use() {
  return StacksInUse.now.load(std::memory_order_relaxed);
}

std::int64_t parked_stacks_now() {
  return ParkedStacks.now.load(std::memory_order_relaxed);
}

} // namespace weft
