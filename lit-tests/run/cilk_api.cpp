// Verify <cilk/cilk_api.h> and <weft/api.h> from a program: per-worker
// partial sums indexed by __cilkrts_get_worker_number() match the serial
// elision at every worker count (numbers stay below __cilkrts_get_nworkers()
// on every worker); the count follows WEFT_NWORKERS; main is worker 0
// before and after its first spawn; weft_set_nworkers() overrides
// WEFT_NWORKERS before the first spawn, rejects 0 and too many, and fails
// once the pool runs; weft_get_stats() reads the WEFT_STATS counters. The
// serial elision (no plugin) gets one worker, number 0, zero counters.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: env WEFT_NWORKERS=1 %t query | FileCheck --check-prefix=ONE %s
// ONE: nworkers 1 main 0 0
// ONE-NEXT: numbers below nworkers: yes
// RUN: env WEFT_NWORKERS=4 WEFT_STRESS=1 %t query | FileCheck --check-prefix=FOUR %s
// FOUR: nworkers 4 main 0 0
// FOUR-NEXT: numbers below nworkers: yes
// RUN: env WEFT_NWORKERS=4 WEFT_STATS=1 %t set 2 2>&1 | FileCheck --check-prefix=SET %s
// SET: set 0: 1, set 257: 1, set 2: 0
// SET-NEXT: nworkers 2
// SET-NEXT: fib(20) = 6765
// SET-NEXT: set 3 after the first spawn: 2, nworkers 2
// SET-NEXT: stats workers 2 threads 2 spawns 10945
// SET-NEXT: weft-stats: workers=2 threads=2 spawns=10945
// RUN: %t.serial query | FileCheck --check-prefix=SERIAL %s
// SERIAL: nworkers 1 main 0 0
// RUN: %t.serial set 2 | FileCheck --check-prefix=SERIAL-SET %s
// SERIAL-SET: set 0: 1, set 257: 1, set 2: 0
// SERIAL-SET-NEXT: nworkers 1
// SERIAL-SET: stats workers 1 threads 0 spawns 0
#include <cilk/cilk.h>
#include <cilk/cilk_api.h>
#include <weft/api.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static std::atomic<bool> NumberOutOfRange{false};

static unsigned checked_number() {
  unsigned W = __cilkrts_get_worker_number();
  if (W >= __cilkrts_get_nworkers())
    NumberOutOfRange = true;
  return W;
}

static void add_range(std::vector<long> &partial, long lo, long hi) {
  if (hi - lo <= 16) {
    for (long i = lo; i < hi; ++i)
      partial[checked_number()] += i * i % 1009;
    return;
  }
  long mid = lo + (hi - lo) / 2;
  cilk_spawn add_range(partial, lo, mid);
  add_range(partial, mid, hi);
  cilk_sync;
}

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

static void query() {
  unsigned before = __cilkrts_get_worker_number();
  long f = fib(18);
  std::printf("nworkers %u main %u %u\n", __cilkrts_get_nworkers(), before,
              __cilkrts_get_worker_number());
  std::vector<long> partial(__cilkrts_get_nworkers());
  add_range(partial, 0, 20000);
  std::printf("numbers below nworkers: %s\n",
              NumberOutOfRange || f != 2584 ? "no" : "yes");
}

static void set(unsigned n) {
  std::printf("set 0: %d, set 257: %d, set %u: %d\n", weft_set_nworkers(0),
              weft_set_nworkers(WEFT_MAX_NWORKERS + 1), n,
              weft_set_nworkers(n));
  std::printf("nworkers %u\n", weft_get_nworkers());
  std::printf("fib(20) = %ld\n", fib(20));
  std::printf("set 3 after the first spawn: %d, nworkers %u\n",
              weft_set_nworkers(3), weft_get_nworkers());
  struct weft_stats s;
  weft_get_stats(&s);
  std::printf("stats workers %u threads %u spawns %llu\n", s.workers,
              s.threads, (unsigned long long)s.spawns);
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "query") == 0) {
    query();
    return 0;
  }
  if (argc > 2 && std::strcmp(argv[1], "set") == 0) {
    set((unsigned)std::atoi(argv[2]));
    return 0;
  }
  std::vector<long> partial(__cilkrts_get_nworkers());
  add_range(partial, 0, 100000);
  long total = 0;
  for (long p : partial)
    total += p;
  std::printf("total %ld, numbers below nworkers: %s\n", total,
              NumberOutOfRange ? "no" : "yes");
  return 0;
}
