/* Verify that freeing heap memory is an access that races with a
 * logically parallel access to the block, as OpenCilk's detector reports
 * it: a child that reads a buffer while the continuation frees it is one
 * race, reported "between a read and a free" at both lines; freeing after
 * the sync, or a block the child never touched, is none. In C and C++
 * (delete), at -O0 and -O2.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck --check-prefixes=CHECK,C %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck --check-prefixes=CHECK,C %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 1 66 %t0cxx | FileCheck --check-prefixes=CHECK,CXX %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 1 66 %t2cxx | FileCheck --check-prefixes=CHECK,CXX %s
 * The call stacks name real lines too, main's inlined into Weft's wrapper:
 * RUN: %expect-races 1 66 %t2cxx | not grep ':0:0'
 * CHECK: sums 120 120 120
 * CHECK: race on {{.*}} between a read and a free
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long sum(const long *p, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i]; // CHECK: read of {{[0-9]+}} bytes in sum{{.*}}free_in_continuation.c:[[@LINE]]:
  return s;
}

static long *filled(void) {
#ifdef __cplusplus
  long *p = new long[16];
#else
  long *p = malloc(16 * sizeof(long));
#endif
  for (int i = 0; i < 16; ++i)
    p[i] = i;
  return p;
}

static void release(long *p) {
#ifdef __cplusplus
  delete[] p; // CXX: free of {{[0-9]+}} bytes in release{{.*}}free_in_continuation.c:[[@LINE]]:
#else
  free(p); // C: free of {{[0-9]+}} bytes in release{{.*}}free_in_continuation.c:[[@LINE]]:
#endif
}

int main(void) {
  long *racy = filled(), *later = filled(), *other = filled();
  long a = cilk_spawn sum(racy, 16);
  release(racy); // CXX: #1 main {{.*}}free_in_continuation.c:[[@LINE]]:
  release(other); /* the child never touches it */
  cilk_sync;
  long b = cilk_spawn sum(later, 16);
  cilk_sync;
  release(later);
  long *again = filled();
  long c = cilk_spawn sum(again, 16);
  cilk_sync;
  release(again);
  printf("sums %ld %ld %ld\n", a, b, c);
  return 0;
}
