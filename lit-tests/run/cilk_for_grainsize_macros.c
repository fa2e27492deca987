/* Verify `#pragma cilk grainsize` written the ways code bases for Cilk Plus
 * and OpenCilk write it, in C and C++: in front of a macro that expands to
 * cilk_for (`#define parallel_for_1 _Pragma("cilk grainsize = 1")
 * parallel_for`, as in the parallel.h of PBBS and Ligra), `grainsize N`
 * and `grainsize = N`, GCC Cilk Plus's `cilk_grainsize = N` through
 * _Pragma and #pragma, macros three levels deep, a function-like macro
 * that builds the pragma's text, a loop passed as a macro argument, a grain
 * that names a variable, and a pragma right after a closing brace. Each
 * loop matches the serial elision, and at P=1 its 64 iterations make
 * 64 / grain - 1 spawns: the grain was applied (the default grain at P=1,
 * 8, would make 7).
 * RUN: %clang -std=c11 -Wno-unknown-pragmas -O2 %s -o %t.serial
 * RUN: %weftcc -std=c11 -Wall -Werror -O2 %s -o %t
 * RUN: %run-check %t %t.serial
 * RUN: %weftcxx -Wall -Werror -O1 -x c++ %s -x none -o %t.cxx
 * RUN: %run-check %t.cxx %t.serial
 * RUN: for k in 1 2 3 4 5 6 7 8 9; do env WEFT_NWORKERS=1 WEFT_STATS=1 %t $k 2>&1 >/dev/null; done | FileCheck %s
 * RUN: for k in 1 2 3 4 5 6 7 8 9; do env WEFT_NWORKERS=1 WEFT_STATS=1 %t.cxx $k 2>&1 >/dev/null; done | FileCheck %s
 * CHECK: weft-stats: workers=1 threads=1 spawns=63 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=15 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=3 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=31 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=1 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=15 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=63 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=3 
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=1 
 */
#include <cilk/cilk.h>

#include <stdio.h>
#include <stdlib.h>

/* A parallel.h of the kind PBBS and Ligra have. */
#define parallel_for cilk_for
#define parallel_for_1 _Pragma("cilk grainsize = 1") parallel_for
#define parallel_for_4 _Pragma("cilk grainsize 4") cilk_for
#define parallel_for_16 _Pragma("cilk grainsize = 16") parallel_for
#define parallel_for_2_gcc _Pragma("cilk_grainsize = 2") cilk_for
#define parallel_for_grain _Pragma("cilk grainsize = grain") parallel_for
/* Three levels of macros above the pragma. */
#define LEVEL2 parallel_for_16
#define BLOCKED_FOR LEVEL2
/* A pragma whose text a function-like macro builds. */
#define STRINGIFY(x) #x
#define PARALLEL_FOR_GRAIN(g) _Pragma(STRINGIFY(cilk grainsize = g)) parallel_for
#define STATEMENT(s) do { s } while (0)

enum { N = 64 };
static long out[N];
static volatile int grain_value = 32;

static long total(void) {
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += out[i];
  return s;
}

static void run(int k) {
  long n = N;
  int grain = grain_value;
  for (int i = 0; i < N; ++i)
    out[i] = 0;
  switch (k) {
  case 1:
    parallel_for_1 (long i = 0; i < n; i++) out[i] = i;
    break;
  case 2:
    parallel_for_4 (long i = 0; i < n; i++) { out[i] = i; }
    break;
  case 3:
    BLOCKED_FOR (long i = 0; i < n; i++) out[i] = i;
    break;
  case 4:
    parallel_for_2_gcc (long i = 0; i < n; i++) out[i] = i;
    break;
  case 5:
#pragma cilk_grainsize = 32
    cilk_for (int i = 0; i < N; ++i) out[i] = i;
    break;
  case 6:
    PARALLEL_FOR_GRAIN(4) (long i = 0; i < n; i++) out[i] = i;
    break;
  case 7:
    STATEMENT(parallel_for_1 (long i = 0; i < n; i++) out[i] = i;);
    break;
  case 8: {
    if (n > 0) {
      out[0] = -1;
    }
#pragma cilk grainsize = 16
    cilk_for (long i = 0; i < n; i++) out[i] = i;
    break;
  }
  case 9:
    parallel_for_grain (long i = 0; i < n; i++) out[i] = i;
    break;
  }
  (void)grain;
}

int main(int argc, char **argv) {
  int first = 1, last = 9;
  if (argc > 1)
    first = last = atoi(argv[1]);
  for (int k = first; k <= last; ++k) {
    run(k);
    printf("loop %d: %ld\n", k, total());
    fflush(stdout);
  }
  return 0;
}
