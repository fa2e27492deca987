// Verify what the fences cost, as WEFT_STATS=1 counts it, on rounds of
// short parallel loops, where every round is split and stolen from anew
// (docs/architecture.md, section 2). By default (adaptive) a thief asks the
// owner for fenced pops instead of paying a membarrier, and the owner
// switches: requests and switches are counted. WEFT_FENCES=asymmetric
// pays a membarrier for every steal and never asks; WEFT_FENCES=symmetric
// never pays one. Each run's result equals the serial elision's, with and
// without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial && %t.serial > %t.expected
// RUN: %weftcxx -O2 %s -o %t
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 %until-stolen %t > %t.out 2> %t.err
// RUN: diff %t.expected %t.out && FileCheck --check-prefix=ADAPTIVE %s < %t.err
// ADAPTIVE: weft-stats: {{.*}} steals={{[1-9][0-9]*}} {{.*}} fences=adaptive {{.*}} fence_requests={{[1-9][0-9]*}} fenced_switches={{[1-9][0-9]*}} unfenced_switches={{[0-9]+}}{{$}}
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 WEFT_FENCES=asymmetric %until-stolen %t > %t.out 2> %t.err
// RUN: diff %t.expected %t.out && FileCheck --check-prefix=ASYM %s < %t.err
// ASYM: fences=asymmetric {{.*}} fence_requests=0 fenced_switches=0 unfenced_switches=0{{$}}
// Every steal of an unfenced deque paid its membarrier: at least as many
// as the steals.
// RUN: sed -n 's/.* steals=\([0-9]*\) .* membarriers=\([0-9]*\) .*/\1 \2/p' %t.err | awk '{ exit !($2 >= $1 && $1 > 0) }'
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 WEFT_FENCES=symmetric %until-stolen %t > %t.out 2> %t.err
// RUN: diff %t.expected %t.out && FileCheck --check-prefix=SYM %s < %t.err
// SYM: fences=symmetric {{.*}} membarriers=0 fence_requests=0 fenced_switches=0 unfenced_switches=0{{$}}
// RUN: env WEFT_NWORKERS=4 WEFT_STRESS=1 %t | diff %t.expected -
// RUN: env WEFT_NWORKERS=3 WEFT_STRESS=1 WEFT_FENCES=asymmetric %t | diff %t.expected -
#include <cilk/cilk.h>
#include <stdio.h>

// Each element's value depends on its index and the round only, so that
// any schedule computes the same bits.
static unsigned long step(unsigned long x, long i, long round) {
  for (int k = 0; k < 8; ++k)
    x = x * 6364136223846793005ul + (unsigned long)(i + round + k);
  return x;
}

int main() {
  // Each round some 2 us at P=1, long enough to be split and stolen; at
  // 512 elements a round was split in four chunks of 0.1 us, and in half
  // the runs the thief, started a few ms late on a VM, took none.
  enum { Rounds = 5000, N = 4096 };
  static unsigned long a[N];
  for (long r = 0; r < Rounds; ++r)
    cilk_for (long i = 0; i < N; ++i)
      a[i] = step(a[i], i, r);
  unsigned long sum = 0;
  for (long i = 0; i < N; ++i)
    sum ^= a[i] + (unsigned long)i;
  printf("%lu\n", sum);
  return 0;
}
