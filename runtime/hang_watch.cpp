//===- hang_watch.cpp - WEFT_DEBUG_HANG: report a scheduler that stopped --===//

#include "hang_watch.h"

#include "config.h"
#include "occupancy.h"
#include "stack_budget.h"
#include "worker.h"

#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <dlfcn.h>
#include <link.h>
#include <thread>

namespace weft {
namespace {

/// How often the watcher looks: often enough to report within a quarter
/// of a second of the deadline, rarely enough to cost nothing.
constexpr long kLookIntervalMs = 250;

const char *activityName(Activity A) {
  switch (A) {
  case Activity::Running:
    return "running program code";
  case Activity::Looking:
    return "looking for work";
  case Activity::Sleeping:
    return "sleeping";
  case Activity::Throttled:
    return "waiting for a stack credit";
  }
  return "?";
}

/// The name of the function at \p Address when the dynamic symbol table
/// has it; else "prog+0x1234" and the addr2line command that names it from
/// the program's own symbol table or debug information.
std::string codeName(const void *Address) {
  char Buffer[512];
  Dl_info Info;
  if (dladdr(Address, &Info) && Info.dli_fname) {
    // addr2line takes a position-independent module's offsets and a
    // fixed-address executable's addresses.
    auto Base = reinterpret_cast<std::uintptr_t>(Info.dli_fbase);
    bool FixedAddress =
        static_cast<const ElfW(Ehdr) *>(Info.dli_fbase)->e_type == ET_EXEC;
    auto Offset = reinterpret_cast<std::uintptr_t>(Address) -
                  (FixedAddress ? 0 : Base);
    if (Info.dli_sname)
      std::snprintf(Buffer, sizeof Buffer, "%s (%s+0x%" PRIxPTR ")",
                    Info.dli_sname, Info.dli_fname, Offset);
    else
      std::snprintf(Buffer, sizeof Buffer,
                    "%s+0x%" PRIxPTR " (addr2line -f -C -e %s 0x%" PRIxPTR ")",
                    Info.dli_fname, Offset, Info.dli_fname, Offset);
  } else {
    std::snprintf(Buffer, sizeof Buffer, "%p", Address);
  }
  return Buffer;
}

std::string workerLine(const WorkerSnapshot &W) {
  std::string What = activityName(W.activity);
  if (W.activity == Activity::Running) {
    if (W.running)
      What += ": the stolen continuation of " + codeName(W.running);
    else if (W.external)
      What += ": its own thread's (main, or a caller of spawning code)";
    else
      What += ": a resumed stack";
  }
  char Buffer[640];
  std::snprintf(Buffer, sizeof Buffer,
                "weft:   worker %u (%s): %s; deque %" PRId64
                " frames; fiber stacks %" PRId64 "; steals=%" PRIu64
                " parks=%" PRIu64 " sleeps=%" PRIu64 "\n",
                W.id, W.external ? "external thread" : "pool thread",
                What.c_str(), W.deque_frames, W.stacks_taken, W.steals, W.parks,
                W.sleeps);
  return Buffer;
}

/// What the picture suggests, in a person's terms.
std::string diagnosis(const HangSnapshot &S) {
  std::string Running;
  std::int64_t Frames = 0;
  for (const WorkerSnapshot &W : S.workers) {
    Frames += W.deque_frames;
    if (W.activity == Activity::Running)
      Running += (Running.empty() ? "" : ", ") + std::to_string(W.id);
  }
  if (!Running.empty())
    return "weft:   worker(s) " + Running +
           " ran program code without spawning, syncing or returning to the "
           "scheduler all that time: a long serial phase, a blocking call, or "
           "a loop that never ends (one that waits for a write that never "
           "comes, or that a data race or an out-of-bounds write keeps "
           "going); a debugger attached to the process shows where.\n";
  char Buffer[400];
  std::snprintf(Buffer, sizeof Buffer,
                "weft:   every worker is idle while %" PRId64
                " stack(s) are parked and %" PRId64
                " frame(s) wait in deques: a lost wake-up or join in the "
                "runtime. Please report it with this output.\n",
                S.parked_stacks, Frames);
  return Buffer;
}

WorkerSnapshot snapshotOf(const Worker &W) {
  WorkerSnapshot Out;
  Out.id = W.id;
  Out.external = W.external;
  Out.activity = W.activity.load(std::memory_order_relaxed);
  Out.running = W.running_code.load(std::memory_order_relaxed);
  Out.deque_frames = W.deque.size_seen();
  Out.stacks_taken = W.stacks_taken.load(std::memory_order_relaxed);
  Out.steals = W.stats.steals.get();
  Out.parks = W.stats.parks.get();
  Out.sleeps = W.stats.sleeps.get();
  return Out;
}

HangSnapshot takeSnapshot() {
  HangSnapshot S;
  S.parked_stacks = parked_stacks_now();
  S.stacks_in_use = stacks_in_use();
  S.stack_limit = static_cast<std::uint64_t>(stack_budget().limit());
  unsigned N = worker_count();
  for (unsigned I = 0; I < N; ++I)
    if (const Worker *W = worker_at(I))
      S.workers.push_back(snapshotOf(*W));
  return S;
}

/// Everything that moves when the scheduler makes progress, folded into
/// one number: each deque's ends and each worker's spawn, steal, park and
/// scheduler-event counts. The counts only grow, so equal fingerprints a
/// quarter second apart mean no worker spawned, stole, parked, resumed or
/// ended a strand in between (a flat loop of spawns leaves its deque's ends
/// where they were, but not its spawn count, which the runtime keeps while
/// the watch runs: stats.cpp, start_counting_spawns_if_read()).
std::uint64_t progressFingerprint() {
  std::uint64_t Hash = 0xcbf29ce484222325ull;
  auto Mix = [&Hash](std::uint64_t V) {
    Hash = (Hash ^ V) * 0x100000001b3ull; // FNV-1a, a word at a time
  };
  unsigned N = worker_count();
  for (unsigned I = 0; I < N; ++I) {
    const Worker *W = worker_at(I);
    if (!W)
      continue;
    Deque<Frame *>::Ends E = W->deque.ends();
    Mix(static_cast<std::uint64_t>(E.top));
    Mix(static_cast<std::uint64_t>(E.bottom));
    Mix(W->stats.spawns.get());
    Mix(W->stats.steals.get());
    Mix(W->stats.parks.get());
    Mix(W->scheduler_events.get());
  }
  return Hash;
}

[[noreturn]] void watch(unsigned StallSeconds) {
  const long StallLooks = StallSeconds * 1000 / kLookIntervalMs;
  std::uint64_t Last = progressFingerprint();
  long StillLooks = 0;
  bool Reported = false;
  for (;;) {
    timespec Pause{0, kLookIntervalMs * 1000 * 1000};
    nanosleep(&Pause, nullptr);
    std::uint64_t Now = progressFingerprint();
    if (Now != Last) {
      Last = Now;
      StillLooks = 0;
      Reported = false;
      continue;
    }
    if (++StillLooks < StallLooks || Reported)
      continue;
    HangSnapshot S = takeSnapshot();
    if (!work_outstanding(S))
      continue;
    S.stalled_seconds = StallSeconds;
    std::string Report = format_hang_report(S);
    std::fputs(Report.c_str(), stderr);
    std::fflush(stderr);
    Reported = true;
  }
}

} // namespace

bool work_outstanding(const HangSnapshot &S) {
  if (S.parked_stacks > 0)
    return true;
  for (const WorkerSnapshot &W : S.workers)
    if (W.activity == Activity::Running || W.deque_frames > 0)
      return true;
  return false;
}

std::string format_hang_report(const HangSnapshot &S) {
  char Heading[256];
  std::snprintf(Heading, sizeof Heading,
                "weft: WEFT_DEBUG_HANG: no progress for %u s (no spawn, steal, "
                "sync or completion) with work outstanding; %zu workers:\n",
                S.stalled_seconds, S.workers.size());
  std::string Out = Heading;
  for (const WorkerSnapshot &W : S.workers)
    Out += workerLine(W);
  char Stacks[200];
  std::snprintf(Stacks, sizeof Stacks,
                "weft:   parked stacks: %" PRId64 "; fiber stacks in use: %" PRId64
                " of %" PRIu64 "\n",
                S.parked_stacks, S.stacks_in_use, S.stack_limit);
  Out += Stacks;
  Out += diagnosis(S);
  return Out;
}

void start_hang_watch() {
  unsigned Seconds = config().debug_hang_seconds;
  if (Seconds == 0)
    return;
  // Detached: it only reads, sleeps between looks, and the process may
  // exit at any moment, which ends it.
  std::thread(watch, Seconds).detach();
}

} // namespace weft
