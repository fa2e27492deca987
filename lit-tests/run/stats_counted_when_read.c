// Verify that spawns are counted exactly, from the first one, in every
// program that can read the count, and that a program that cannot does
// not pay for the counter (runtime/stats_api.cpp). A program that calls
// weft_get_stats() links the archive member that defines it, and the
// runtime counts from the pool's start, even with no WEFT_STATS in the
// environment and even when the call comes only at the end: fib(22) makes
// 28656 spawns (one per call with n >= 2), at P=1, at P=2 with forced
// steals, and with symmetric fences, where every pop takes the
// runtime's fenced path. A program that never calls it links no such member:
// the runtime's reference to it stays weak and undefined.
//
// RUN: %weftcc -O2 %s -o %t
// RUN: env WEFT_NWORKERS=1 %t | FileCheck %s
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 %t | FileCheck %s
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_FENCES=symmetric %t | FileCheck %s
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 %t 2>&1 | FileCheck --check-prefix=LINE %s
// CHECK: fib(22) = 17711
// CHECK-NEXT: spawns = 28656
// LINE: spawns = 28656
// LINE: weft-stats: workers=2 threads={{[0-9]+}} spawns=28656
//
// RUN: llvm-nm %t | FileCheck --check-prefix=LINKED %s
// LINKED: T __weft_stats_api_linked
// RUN: %weftcc -O2 -DNEVER_READ %s -o %t.unread
// RUN: env WEFT_NWORKERS=2 %t.unread | FileCheck --check-prefix=UNREAD %s
// RUN: llvm-nm %t.unread | FileCheck --check-prefix=NOT-LINKED %s
// UNREAD: fib(22) = 17711
// NOT-LINKED: w __weft_stats_api_linked
// NOT-LINKED-NOT: T weft_get_stats
#include <cilk/cilk.h>
#include <stdio.h>
#include <weft/api.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main(void) {
  printf("fib(22) = %ld\n", fib(22));
#ifndef NEVER_READ
  struct weft_stats s;
  weft_get_stats(&s);
  printf("spawns = %llu\n", (unsigned long long)s.spawns);
#endif
  return 0;
}
