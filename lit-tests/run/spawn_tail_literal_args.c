/* Verify a fast clone whose last recursive call, on a path that spawns
 * nothing, passes a literal where the function's own argument was
 * (`walk(mid, hi, 1, out)`): the call becomes the loop's next round, and
 * the frame slot of that argument must be stored again in the rounds that
 * reach the spawns, not dropped as a constant the first round already
 * stored (the first round stored the caller's argument). Each leaf writes
 * its tag, so a stale slot shows as a wrong digit. In C and C++, at -O1
 * and -O2, against the serial elision.
 * RUN: %clang -O2 %s -o %t.serial
 * RUN: %weftcc -O1 %s -o %t.o1
 * RUN: %run-check %t.o1 %t.serial
 * RUN: %weftcc -O2 %s -o %t.o2
 * RUN: %run-check %t.o2 %t.serial
 * RUN: %weftcxx -x c++ -O2 %s -o %t.cxx
 * RUN: %run-check %t.cxx %t.serial
 * RUN: %t.o2 | FileCheck %s
 * CHECK: 0111111111111111111111111111111111
 * CHECK-NEXT: 011101111011101111111111111111111111101110111111111111111111111111111111111
 */
#include <cilk/cilk.h>
#include <stdio.h>

/* Tags the leaves of [lo, hi) into out: a range whose length is a
 * multiple of 3 spawns its lower half; any other makes both calls itself,
 * the upper half's with tag 1. */
static void walk(long lo, long hi, int tag, char *out) {
  if (hi - lo == 1) {
    out[lo] = (char)('0' + tag);
    return;
  }
  long mid = (lo + hi) / 2;
  cilk_scope {
    if ((hi - lo) % 3 == 0) {
      cilk_spawn walk(lo, mid, tag, out);
      walk(mid, hi, tag, out);
    } else {
      walk(lo, mid, tag, out);
      walk(mid, hi, 1, out);
    }
  }
}

int main(void) {
  long sizes[] = {34, 75, 96, 1000};
  for (int s = 0; s < 4; ++s) {
    char out[1001] = {0};
    walk(0, sizes[s], 0, out);
    printf("%s\n", out);
  }
  return 0;
}
