// Verify that WEFT_STATS=1 prints its line at exit even when the program
// never spawns, so that a program someone expected to run in parallel says
// spawns=0 at once: C and C++, through the drivers, with the exit status
// kept. Without the variable nothing is printed. Before the fix such a
// program printed nothing (the runtime was not even linked).
//
// RUN: %weftcc -O2 %s -o %t
// RUN: env WEFT_STATS=1 WEFT_NWORKERS=3 not %t 2>&1 | FileCheck %s
// RUN: not %t 2>&1 | FileCheck --check-prefix=QUIET --allow-empty %s
// RUN: %weftcxx -O2 -x c++ %s -o %t.cpp.bin
// RUN: env WEFT_STATS=1 WEFT_NWORKERS=3 not %t.cpp.bin 2>&1 | FileCheck %s
//
// CHECK: no spawns here
// CHECK-NEXT: weft-stats: workers=3 threads=0 spawns=0 steals=0 steal_attempts=0 parks=0 stacks=0 sleeps=0 fences=none peak_frames=0 peak_stacks=0 peak_parked=0 peak_frames_per_worker= peak_stacks_per_worker= max_stacks=0 peak_mapped=0 throttled=0 membarriers=0 fence_requests=0 fenced_switches=0 unfenced_switches=0
// QUIET-NOT: weft-stats

#include <stdio.h>

int main(void) {
  long Sum = 0;
  for (long I = 0; I < 1000; ++I)
    Sum += I;
  printf("no spawns here\n");
  return Sum == 499500 ? 3 : 0;
}
