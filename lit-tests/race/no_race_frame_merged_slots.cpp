// Verify that --weft-race reports nothing when a spawning loop's spilled
// values are reloaded through merged frame addresses. The landing pads
// that destroy `v` reload its pointers from different spill slots, and the
// optimizer merges those slots' addresses: in a phi of phis, or, in the
// slow clone, in a GEP of the frame by a phi of the slots' offsets. Each
// made the slots count as the program's, so their accesses stayed
// instrumented; the reloads at the start of a continuation run before its
// hook, so the detector took them for the child's and reported the next
// iteration's spill to the slot as racing with them (random campaign,
// seed 140789). Each child writes only its own element of `a`, read after
// the sync. The program's output must equal its serial elision's.
// RUN: %clangxx -O1 %s -o %t.serial
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O1 -g %s -o %t1
// RUN: %expect-races 0 0 %t1 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 %s -o %t2
// RUN: %expect-races 0 0 %t2 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t3
// RUN: %run-check %t3 %t.serial
// CHECK: races found: 0
#include <cilk/cilk.h>
#include <cstdio>
#include <vector>

static void fill(long i, long *out) { *out = i * 17; }

long f(long n, long s) {
  long a[4] = {0, 0, 0, 0};
  std::vector<long> v(n % 3 + 1, s);
  for (long i = 0; i < n % 3 + 1; ++i) {
    cilk_spawn fill(i, &a[i]);
    v.push_back(s ^ i);
  }
  if (s % 4 == 1) {
    if (n == 1)
      v.push_back(n ^ 906);
    else
      cilk_sync;
  }
  cilk_sync;
  unsigned long h = s;
  for (long k = 0; k < 4; ++k)
    h = (h ^ a[k]) * 31;
  for (long e : v)
    h = (h ^ e) * 31;
  return (long)h;
}

int main() {
  printf("%ld\n", f(5, 1));
  return 0;
}
