// Verify Cilk Plus's __cilkrts_set_param, __cilkrts_init and
// __cilkrts_end_cilk (<cilk/cilk_api.h>) and the CILK_NWORKERS fallback:
// "nworkers" sets the count before the first spawn (over WEFT_NWORKERS),
// "0" restores the environment's count, bad values give XRANGE or INVALID
// and change nothing, other parameters give UNIMP, and once the pool runs
// (after a spawn, or after __cilkrts_init) the answer is LATE;
// __cilkrts_end_cilk before the first spawn lets the count be set, as Cilk
// Plus programs expect. CILK_NWORKERS gives the count when WEFT_NWORKERS
// is unset, and a bad value of it is an error naming it. The serial
// elision checks the arguments the same way and has one worker.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: env WEFT_NWORKERS=3 WEFT_STATS=1 %t set 2 2>&1 | FileCheck --check-prefix=SET %s
// SET: end_cilk, then nworkers 2: 0 (SUCCESS 0)
// SET-NEXT: nworkers 2
// SET-NEXT: bad values: 2 2 3 3 3, other parameters: 1 1, nworkers 2
// SET-NEXT: fib(20) = 6765
// SET-NEXT: after the first spawn: 4 (LATE 4), nworkers 2
// SET-NEXT: weft-stats: workers=2
// RUN: env WEFT_NWORKERS=3 %t reset | FileCheck --check-prefix=RESET %s
// RESET: set 5: 0, nworkers 5, set 0: 0, nworkers 3
// RUN: env WEFT_NWORKERS=3 WEFT_STATS=1 %t init 2>&1 | FileCheck --check-prefix=INIT %s
// INIT: after __cilkrts_init: 4, nworkers 3, worker 0
// INIT-NEXT: fib(20) = 6765
// INIT-NEXT: weft-stats: workers=3 threads=3
// RUN: env -u WEFT_NWORKERS CILK_NWORKERS=3 %t count | FileCheck --check-prefix=CILK %s
// CILK: nworkers 3
// RUN: env WEFT_NWORKERS=2 CILK_NWORKERS=3 %t count | FileCheck --check-prefix=BOTH %s
// BOTH: nworkers 2
// RUN: env -u WEFT_NWORKERS CILK_NWORKERS=three not %t count 2>&1 | FileCheck --check-prefix=BAD %s
// BAD: weft: invalid CILK_NWORKERS='three': expected an integer from 1 to 256
// RUN: %t.serial set 2 | FileCheck --check-prefix=SERIAL %s
// SERIAL: end_cilk, then nworkers 2: 0 (SUCCESS 0)
// SERIAL-NEXT: nworkers 1
// SERIAL-NEXT: bad values: 2 2 3 3 3, other parameters: 1 1, nworkers 1
#include <cilk/cilk.h>
#include <cilk/cilk_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

static void set(const char *n) {
  __cilkrts_end_cilk(); // Cilk Plus's idiom before changing the count
  std::printf("end_cilk, then nworkers %s: %d (SUCCESS %d)\n", n,
              __cilkrts_set_param("nworkers", n), __CILKRTS_SET_PARAM_SUCCESS);
  std::printf("nworkers %u\n", __cilkrts_get_nworkers());
  std::printf("bad values: %d %d %d %d %d, other parameters: %d %d, "
              "nworkers %u\n",
              __cilkrts_set_param("nworkers", "1000"),
              __cilkrts_set_param("nworkers", "-2"),
              __cilkrts_set_param("nworkers", "two"),
              __cilkrts_set_param("nworkers", nullptr),
              __cilkrts_set_param(nullptr, "2"),
              __cilkrts_set_param("force reduce", "1"),
              __cilkrts_set_param("stack size", "1000000"),
              __cilkrts_get_nworkers());
  std::printf("fib(20) = %ld\n", fib(20));
  std::printf("after the first spawn: %d (LATE %d), nworkers %u\n",
              __cilkrts_set_param("nworkers", "3"), __CILKRTS_SET_PARAM_LATE,
              __cilkrts_get_nworkers());
}

static void reset() {
  int five = __cilkrts_set_param("nworkers", "5");
  unsigned after_five = __cilkrts_get_nworkers();
  int zero = __cilkrts_set_param("nworkers", "0");
  std::printf("set 5: %d, nworkers %u, set 0: %d, nworkers %u\n", five,
              after_five, zero, __cilkrts_get_nworkers());
}

static void init() {
  __cilkrts_init();
  int late = __cilkrts_set_param("nworkers", "1");
  std::printf("after __cilkrts_init: %d, nworkers %u, worker %u\n", late,
              __cilkrts_get_nworkers(), __cilkrts_get_worker_number());
  std::printf("fib(20) = %ld\n", fib(20));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "set") == 0 && argc > 2)
    set(argv[2]);
  else if (std::strcmp(mode, "reset") == 0)
    reset();
  else if (std::strcmp(mode, "init") == 0)
    init();
  else if (std::strcmp(mode, "count") == 0)
    std::printf("nworkers %u\n", __cilkrts_get_nworkers());
  else
    std::printf("fib(22) = %ld\n", fib(22));
  return 0;
}
