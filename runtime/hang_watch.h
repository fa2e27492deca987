//===- hang_watch.h - WEFT_DEBUG_HANG: report a scheduler that stopped ----===//
//
// With WEFT_DEBUG_HANG=S, a watcher thread started with the pool looks at
// every worker four times a second. When nothing has moved for S seconds
// (no spawn, steal, park, sync, completion or resumed stack, no deque
// changed) while work is outstanding (a worker runs program code, a deque
// holds a frame, or a stack is parked), it prints what each worker is doing
// to stderr, once per stall, and keeps watching.
//
// The watcher only reads: each worker's activity word, deque ends and
// counters are atomics their owners write relaxed, so a snapshot is a
// consistent enough picture for a person, never an input to scheduling.
// Without the variable no thread is started; the workers still keep their
// activity word and event count, on the scheduler's slow paths only.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_HANG_WATCH_H
#define WEFT_RUNTIME_HANG_WATCH_H

#include <cstdint>
#include <string>
#include <vector>

namespace weft {

/// What a worker is doing, as it last said (Worker::activity).
enum class Activity : std::uint8_t {
  Running,   // program code: its own thread's, a stolen continuation or a
             // resumed stack
  Looking,   // in the scheduler loop: resuming, stealing, backing off
  Sleeping,  // idle, asleep on the wake-up futex
  Throttled, // idle, waiting for a stack credit (stack_budget.h)
};

/// One worker as the watcher saw it.
struct WorkerSnapshot {
  unsigned id = 0;
  bool external = false;       // main, or another thread that spawned
  Activity activity = Activity::Looking;
  const void *running = nullptr; // slow clone entry of the frame it resumed
  std::int64_t deque_frames = 0;
  std::int64_t stacks_taken = 0; // fiber stacks counted against it
  std::uint64_t steals = 0, parks = 0, sleeps = 0;
};

/// The whole runtime as the watcher saw it.
struct HangSnapshot {
  unsigned stalled_seconds = 0;
  std::int64_t parked_stacks = 0;
  std::int64_t stacks_in_use = 0;
  std::uint64_t stack_limit = 0;
  std::vector<WorkerSnapshot> workers;
};

/// Whether anything in \p S waits to be done: a worker runs program code,
/// a deque holds a frame or a stack is parked. An idle pool is no hang.
bool work_outstanding(const HangSnapshot &S);

/// The report printed for a stall: a heading, one line per worker, the
/// stacks, and what the picture suggests. Names code by module and offset
/// (for addr2line), so it needs no symbol table.
std::string format_hang_report(const HangSnapshot &S);

/// Starts the watcher if WEFT_DEBUG_HANG is set; called once, when the pool
/// starts (worker.cpp).
void start_hang_watch();

} // namespace weft

#endif // WEFT_RUNTIME_HANG_WATCH_H
