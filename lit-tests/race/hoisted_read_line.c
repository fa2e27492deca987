/* Verify that a race report names a real source line for an access that
 * an optimisation moved: at -O1 and -O2 LICM hoists the child's load of a
 * global out of its loop and gives it line 0; the report names the
 * nearest line instead (the loop's), never `:0:`. At -O0 the load keeps
 * its own line. In C and in C++.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck --check-prefixes=CHECK,O0 %s
 * RUN: %weftcc --weft-race -O1 -g %s -o %t1
 * RUN: %expect-races 1 66 %t1 | FileCheck --check-prefixes=CHECK,OPT %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck --check-prefixes=CHECK,OPT %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 1 66 %t2cxx | FileCheck --check-prefixes=CHECK,OPT %s
 * CHECK-NOT: :0:0
 * CHECK: weft-race: race on
 * CHECK-NOT: :0:0
 */
#include <cilk/cilk.h>
#include <stdio.h>

long g = 1;
long total;

__attribute__((noinline)) void sum_global(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) // OPT: read of 8 bytes in sum_global{{.*}}hoisted_read_line.c:[[@LINE]]:
    s += g; // O0: read of 8 bytes in sum_global{{.*}}hoisted_read_line.c:[[@LINE]]:
  total = s;
}

int main(void) {
  cilk_spawn sum_global(100);
  g = 2; // CHECK: write of 8 bytes in main at {{.*}}hoisted_read_line.c:[[@LINE]]:
  cilk_sync;
  printf("%ld\n", total);
  return 0;
}
