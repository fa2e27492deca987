//===- config.h - Runtime settings read from the environment --------------===//
//
//   WEFT_NWORKERS=N    worker threads including the calling thread
//                      (default: CILK_NWORKERS, OpenCilk's and Cilk
//                      Plus's name, else CPUs in the affinity mask)
//   WEFT_STATS=0|1     print one `weft-stats:` line to stderr at exit
//   WEFT_STACK_KB=K    size of each fiber stack in KiB (default: 16 times
//                      the soft RLIMIT_STACK, less under an RLIMIT_AS)
//   WEFT_MAIN_STACK_KB=K
//                      size of the stack main runs on, in KiB; 0 keeps
//                      main on the thread's own stack (default: 16 times
//                      the soft RLIMIT_STACK; main_stack.h)
//   WEFT_MAX_STACKS=N  most fiber stacks in use at once; thieves wait when
//                      a steal could need one more (default 16 per worker;
//                      stack_budget.h)
//   WEFT_STRESS=0|1    force steals: yield after pushes, never sleep, so the
//                      slow clones, parking and joins run constantly
//   WEFT_FENCES=auto|symmetric|asymmetric
//                      how pop and steal are ordered (fence.h): auto
//                      switches each deque between unfenced pops and
//                      fenced ones as thieves come (needs membarrier, else
//                      symmetric); symmetric fences every pop; asymmetric
//                      never, and pays a membarrier per steal
//   WEFT_DEBUG_HANG=S  when nothing moves for S seconds while work is
//                      outstanding, print each worker's state to stderr
//                      (hang_watch.h); 0, the default, watches nothing
//
// Every value is checked once, at program start; a bad value prints one
// line naming the variable and exits with status 2.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_CONFIG_H
#define WEFT_RUNTIME_CONFIG_H

#include <atomic>
#include <cstddef>
#include <mutex>

namespace weft {

/// Upper bound on worker slots (threads plus external callers). Slots are
/// never reused, so this also bounds distinct external threads over a run.
inline constexpr unsigned kMaxWorkers = 512;

enum class FenceMode { Auto, Symmetric, Asymmetric };

struct Config {
  unsigned nworkers = 1;
  bool stats = false;
  bool stress = false;
  std::size_t stack_bytes = 128u << 20;
  std::size_t main_stack_bytes = 0; // 0: main stays on its own stack
  std::size_t max_stacks = 0; // 0: kDefaultStacksPerWorker per worker
  FenceMode fences = FenceMode::Auto;
  unsigned debug_hang_seconds = 0; // 0: no hang watchdog
};

/// Parses the environment once; later calls return the same settings.
const Config &config();

/// Rejects the value of a setting read from the environment, this file's or
/// the work/span analysis's (workspan.h): prints one line naming \p Name,
/// its \p Value and what was \p Expected, and exits with status 2.
[[noreturn]] void invalid_setting(const char *Name, const char *Value,
                                  const char *Expected);

/// The worker count: the environment's (Config::nworkers) unless the
/// program set another (weft_set_nworkers) before the pool started. The
/// pool's start fixes it; the lock orders a setter against that start.
/// Reading takes no lock: programs ask for the count in their hot loops
/// (parlaylib's granularity, on every loop and sort, and the default grain
/// of every cilk_for), on every worker at once.
class WorkerCount {
public:
  explicit WorkerCount(unsigned Initial) : Count(Initial) {}
  /// WEFT_OK, or WEFT_EINVAL / WEFT_ESTARTED (weft/api.h), changing nothing.
  int set(unsigned N);
  /// The count the pool starts with; every later set() fails.
  unsigned fix();
  unsigned get() const;
  /// Whether the pool has started with the count.
  bool fixed() const;
  /// For the work/span analysis (workspan.cpp): one worker from now on,
  /// and every later set() fails, but planned() keeps the count so far.
  void pinToOne();
  /// The count the program would run with unpinned, which a parallel
  /// loop's default grain follows, so that it is split as it would be.
  unsigned planned() const;

private:
  // Written under Lock, read without it. Relaxed suffices: each is a value
  // of its own that publishes no other data, a read sees the latest write
  // that happens before it (or a later one), and once the pool has started
  // neither changes.
  std::atomic<unsigned> Count;
  std::atomic<bool> PinnedToOne{false};
  mutable std::mutex Lock;
  bool Fixed = false; // under Lock
};

/// The process's worker count, initially config().nworkers.
WorkerCount &nworkers_setting();

/// __cilkrts_set_param(\p Param, \p Value) (cilk/cilk_api.h) on \p Count,
/// whose default, which "nworkers" "0" restores, is \p Default.
int set_cilk_param(WorkerCount &Count, const char *Param, const char *Value,
                   unsigned Default);

} // namespace weft

#endif // WEFT_RUNTIME_CONFIG_H
