// Verify the peaks and the bound on stacks that WEFT_STATS=1 and
// weft_get_stats() report. Deque
// depth (peak_frames): work-first stealing keeps at most one frame of a
// flat spawn loop on any deque, and at most n - 1 frames of fib(n) (the
// spawn depth of the serial program) on each worker's deque, however many
// workers steal. Fiber stacks (peak_stacks) and parks (peak_parked): a
// child that waits for its own continuation to be stolen parks main's stack
// exactly once; the worker that parked takes one fiber for it, and each
// pool thread holds one from its start, so P fibers are in use at once
// (at P=2; with more workers, a pool thread that has not started by the
// time the park ends takes its fiber later). The program checks the
// bounds itself; FileCheck checks the exact values.
// RUN: %weftcxx -O2 %s -o %t
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t flat 2>&1 | FileCheck --check-prefix=FLAT1 %s
// FLAT1: flat: ok
// FLAT1: weft-stats: workers=1 threads=1 spawns=65536 {{.*}} peak_frames=1 peak_stacks=0 peak_parked=0 peak_frames_per_worker=1 peak_stacks_per_worker=0 max_stacks=16 peak_mapped=0 throttled=0 membarriers={{[0-9]+}} fence_requests={{[0-9]+}} fenced_switches={{[0-9]+}} unfenced_switches={{[0-9]+}}{{$}}
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t fib 2>&1 | FileCheck --check-prefix=FIB1 %s
// FIB1: fib: ok
// FIB1: weft-stats: workers=1 {{.*}} peak_frames=19 peak_stacks=0 peak_parked=0 peak_frames_per_worker=19 peak_stacks_per_worker=0 max_stacks=16 peak_mapped=0 throttled=0 membarriers={{[0-9]+}} fence_requests={{[0-9]+}} fenced_switches={{[0-9]+}} unfenced_switches={{[0-9]+}}{{$}}
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 %t park 2>&1 | FileCheck --check-prefix=PARK2 %s
// PARK2: park: ok
// PARK2: weft-stats: workers=2 threads=2 spawns=1 steals=1 {{.*}} parks=1 {{.*}} peak_frames=1 peak_stacks=2 peak_parked=1 peak_frames_per_worker=1,0 peak_stacks_per_worker=1,1 max_stacks=32 peak_mapped=2 throttled=0 membarriers={{[0-9]+}} fence_requests={{[0-9]+}} fenced_switches={{[0-9]+}} unfenced_switches={{[0-9]+}}{{$}}
// RUN: env WEFT_NWORKERS=4 WEFT_STATS=1 %t park 2>&1 | FileCheck --check-prefix=PARK4 %s
// PARK4: park: ok
// PARK4: weft-stats: workers=4 {{.*}} peak_stacks={{[234]}} peak_parked=1 peak_frames_per_worker=1,0,0,0 peak_stacks_per_worker=1,1,1,1 max_stacks=64 peak_mapped={{[234]}} throttled=0 membarriers={{[0-9]+}} fence_requests={{[0-9]+}} fenced_switches={{[0-9]+}} unfenced_switches={{[0-9]+}}{{$}}
// The same bounds with steals forced, at -O2 (the inlined spawn path) and
// -O0 (every push a call into the runtime):
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %t flat 2>&1 | FileCheck --check-prefix=FLAT2 %s
// FLAT2: flat: ok
// FLAT2: peak_frames=1 {{.*}} peak_frames_per_worker={{[01]}},{{[01]}} peak_stacks_per_worker=
// RUN: env WEFT_NWORKERS=4 WEFT_STRESS=1 %t fib | FileCheck --check-prefix=FIB %s
// RUN: %weftcxx -O0 %s -o %t.O0
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.O0 fib 2>&1 | FileCheck --check-prefix=FIB1 %s
// RUN: env WEFT_NWORKERS=4 WEFT_STRESS=1 %t.O0 fib | FileCheck --check-prefix=FIB %s
// FIB: fib: ok
#include <cilk/cilk.h>
#include <weft/api.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <sched.h>

constexpr long kFlatSpawns = 1 << 16;
constexpr long kFibN = 20;

__attribute__((noinline)) void leaf(long *Slot, long I) { *Slot = I & 1; }

long flatLoop() {
  static long Slots[kFlatSpawns];
  for (long I = 0; I < kFlatSpawns; ++I)
    cilk_spawn leaf(&Slots[I], I);
  cilk_sync;
  long Sum = 0;
  for (long V : Slots)
    Sum += V;
  return Sum;
}

long fib(long N) {
  if (N < 2)
    return N;
  long X = cilk_spawn fib(N - 1);
  long Y = fib(N - 2);
  cilk_sync;
  return X + Y;
}

std::atomic<bool> ContinuationRan{false};

/// Returns only once its parent's continuation has run, which takes a
/// thief: so the parent's frame is stolen, and main's stack parks.
__attribute__((noinline)) void waitForTheThief() {
  while (!ContinuationRan.load(std::memory_order_acquire))
    sched_yield();
}

void parkOnce() {
  cilk_spawn waitForTheThief();
  ContinuationRan.store(true, std::memory_order_release);
  cilk_sync;
}

/// Checks \p Got within [Low, High]; prints what failed.
bool within(const char *What, unsigned long long Got, unsigned long long Low,
            unsigned long long High) {
  if (Got >= Low && Got <= High)
    return true;
  std::printf("%s = %llu, expected %llu to %llu\n", What, Got, Low, High);
  return false;
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "fib";
  weft_stats S;
  bool Ok = true;
  if (!std::strcmp(Mode, "flat")) {
    Ok = flatLoop() == kFlatSpawns / 2;
    weft_get_stats(&S);
    Ok = within("peak_frames", S.peak_frames, 1, 1) && Ok;
  } else if (!std::strcmp(Mode, "fib")) {
    Ok = fib(kFibN) == 6765;
    weft_get_stats(&S);
    Ok = within("peak_frames", S.peak_frames, 1, kFibN - 1) && Ok;
  } else {
    parkOnce();
    weft_get_stats(&S);
    Ok = within("peak_parked", S.peak_parked, 1, 1) &&
         within("peak_stacks", S.peak_stacks, 2, S.workers) &&
         within("peak_frames", S.peak_frames, 1, 1);
  }
  Ok = within("peak_stacks", S.peak_stacks, 0, S.stacks) && Ok;
  Ok = within("peak_parked", S.peak_parked, 0, S.parks) && Ok;
  // The bound on stacks, as WEFT_STATS reports it (stack_budget.h).
  Ok = within("max_stacks", S.max_stacks, 16 * S.workers, 16 * S.workers) && Ok;
  Ok = within("peak_mapped", S.peak_mapped, S.peak_stacks,
              S.max_stacks + 4 * S.threads) && Ok;
  Ok = within("throttled", S.throttled, 0, 0) && Ok;
  std::printf("%s: %s\n", Mode, Ok ? "ok" : "FAILED");
  return Ok ? 0 : 1;
}
