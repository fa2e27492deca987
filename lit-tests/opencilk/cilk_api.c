/* Verify OpenCilk's runtime API in <cilk/cilk_api.h>: before the pool
 * starts the runtime is not initialized and main is not on a worker;
 * start callbacks run once, in the order registered, as the first spawn
 * starts the pool (on main, already a worker, so a callback may spawn), and
 * one registered after that is refused; exit callbacks run in reverse
 * order at exit. Without the plugin the stand-ins say "no runtime" and
 * run no callback.
 * RUN: %weftcc -Wall -Werror -O2 %s -o %t
 * RUN: env WEFT_NWORKERS=2 %t | FileCheck %s
 * RUN: env WEFT_NWORKERS=1 WEFT_STRESS=1 %t | FileCheck %s
 * CHECK: before: initialized 0, on workers 0, atinit 0 0, atexit 0 0
 * CHECK-NEXT: start 1: initialized 1, on workers 1, fib 610
 * CHECK-NEXT: start 2
 * CHECK-NEXT: after: initialized 1, on workers 1, atinit -1, fib 6765
 * CHECK-NEXT: exit 2
 * CHECK-NEXT: exit 1
 * CHECK-NOT: {{.}}
 * RUN: %clang -Wall -Werror -O2 %s -o %t.serial
 * RUN: %t.serial | FileCheck --check-prefix=SERIAL %s
 * SERIAL: before: initialized 0, on workers 0, atinit 0 0, atexit 0 0
 * SERIAL-NEXT: after: initialized 0, on workers 0, atinit 0, fib 6765
 * SERIAL-NOT: {{.}}
 */
#include <cilk/cilk.h>
#include <cilk/cilk_api.h>
#include <stdio.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

static void start1(void) {
  printf("start 1: initialized %d, on workers %d, fib %ld\n",
         __cilkrts_is_initialized(), __cilkrts_running_on_workers(), fib(15));
}
static void start2(void) { printf("start 2\n"); }
static void late(void) { printf("late: never runs\n"); }
static void exit1(void) { printf("exit 1\n"); }
static void exit2(void) { printf("exit 2\n"); fflush(stdout); }

int main(void) {
  int i1 = __cilkrts_atinit(start1), i2 = __cilkrts_atinit(start2);
  int e1 = __cilkrts_atexit(exit1), e2 = __cilkrts_atexit(exit2);
  printf("before: initialized %d, on workers %d, atinit %d %d, atexit %d %d\n",
         __cilkrts_is_initialized(), __cilkrts_running_on_workers(), i1, i2,
         e1, e2);
  long f = fib(20);
  printf("after: initialized %d, on workers %d, atinit %d, fib %ld\n",
         __cilkrts_is_initialized(), __cilkrts_running_on_workers(),
         __cilkrts_atinit(late), f);
  fflush(stdout);
  return 0;
}
