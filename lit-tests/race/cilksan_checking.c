/* Verify <cilk/cilksan.h>'s checking switch under --weft-race (and
 * -fsanitize=cilk), as in OpenCilk: accesses between
 * __cilksan_disable_checking() and __cilksan_enable_checking() are not
 * checked (the calls nest, and checking is on again after the last
 * enable), __cilksan_is_checking_enabled() says whether it is on, and a
 * race outside the switched-off code is still found. In C and C++, at -O0
 * and -O2. A normal build runs it too (the calls are no-ops, checking is
 * never on).
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck --check-prefixes=CHECK,RACE %s
 * RUN: %weftcc -fsanitize=cilk -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck --check-prefixes=CHECK,RACE %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 1 66 %t2cxx | FileCheck --check-prefixes=CHECK,RACE %s
 * RUN: %weftcc -O2 %s -o %tn && %tn | FileCheck --check-prefix=NORMAL %s
 * RACE: enabled 1 0 0 1
 * NORMAL: enabled 0 0 0 0
 * CHECK: total 8
 */
#include <cilk/cilk.h>
#include <cilk/cilksan.h>
#include <stdio.h>

long hidden, seen;

__attribute__((noinline)) void bump_hidden(void) {
  __cilksan_disable_checking();
  hidden += 1; /* not checked: no race reported */
  __cilksan_enable_checking();
}

__attribute__((noinline)) void bump_seen(void) {
  seen += 1; // RACE: {{(read|write)}} of 8 bytes in bump_seen{{.*}}cilksan_checking.c:[[@LINE]]:
}

int main(void) {
  int states[4];
  states[0] = __cilksan_is_checking_enabled();
  __cilksan_disable_checking();
  __cilksan_disable_checking();
  states[1] = __cilksan_is_checking_enabled();
  __cilksan_enable_checking();
  states[2] = __cilksan_is_checking_enabled(); /* still off: nested */
  __cilksan_enable_checking();
  states[3] = __cilksan_is_checking_enabled();
  printf("enabled %d %d %d %d\n", states[0], states[1], states[2], states[3]);
  cilk_spawn bump_hidden();
  bump_hidden();
  cilk_sync;
  cilk_spawn bump_seen();
  bump_seen();
  cilk_sync;
  for (int i = 0; i < 4; ++i) {
    cilk_spawn bump_hidden();
  }
  cilk_sync;
  printf("total %ld\n", hidden + seen);
  return 0;
}
