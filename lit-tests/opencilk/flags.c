/* Verify that the drivers take OpenCilk's and Cilk Plus's flags with their
 * meaning, so that their Makefiles build unchanged: -fopencilk and
 * -fcilkplus (Cilk is always on), the runtimes' -l flags and
 * --opencilk-resource-dir (Weft's runtime is linked instead),
 * -fsanitize=cilk (the race detector; in a list with other sanitizers, an
 * error), -fopencilk-enable-pedigrees and -lopencilk-pedigrees (pedigrees,
 * __cilk_pedigrees__ defined), -fcilktool=cilkscale and
 * cilkscale-instructions (the work/span analysis) and cilkscale-benchmark
 * (the parallel build, its regions timed: a last CSV row for the whole
 * run); that OpenCilk's predefined
 * macros are there (__cilk is 200; __cilksan__ and __cilkscale__ in those
 * builds); and that a flag Weft cannot honour is one clear line and a
 * failed build, never dropped.
 * RUN: %clang -O2 %s -o %t.serial
 * RUN: %weftcc -fopencilk -O2 %s -o %t -lopencilk --opencilk-resource-dir=/nowhere
 * RUN: %run-check %t %t.serial
 * RUN: %t macros | FileCheck --check-prefix=OPENCILK %s
 * OPENCILK: __cilk 200
 * OPENCILK-NOT: cilksan
 * OPENCILK-NOT: cilkscale
 * RUN: %weftcc -fopencilk --opencilk-resource-dir /nowhere -c %s -o %t.o
 * RUN: %weftcc -fopencilk %t.o -o %t.linked -lopencilk-personality-c
 * RUN: %run-check %t.linked %t.serial
 * RUN: %weftcc -fcilkplus -O2 %s -o %t.plus -lcilkrts
 * RUN: %run-check %t.plus %t.serial
 *
 * RUN: %weftcc -fopencilk -fsanitize=cilk -O1 -g %s -o %t.race
 * RUN: %t.race macros | FileCheck --check-prefix=RACE %s
 * RACE: __cilk 200
 * RACE-NEXT: cilksan
 * RUN: %expect-races 1 66 %t.race race | FileCheck --check-prefix=RACY %s
 * RACY: weft-race:
 * RUN: not %weftcc -fopencilk -fsanitize=undefined,cilk %s -o %t.x 2>&1 | FileCheck --check-prefix=MIXED %s
 * MIXED: weft-clang: error: -fsanitize=undefined,cilk: -fsanitize=cilk (the race detector) cannot be combined with other sanitizers
 *
 * RUN: %weftcc -fopencilk -fcilktool=cilkscale -O2 %s -o %t.scale
 * RUN: %t.scale macros 2> /dev/null | FileCheck --check-prefix=SCALE %s
 * SCALE: __cilk 200
 * SCALE-NEXT: cilkscale
 * RUN: %weftcc -fopencilk -fcilktool=cilkscale-benchmark -O2 %s -o %t.bench
 * RUN: %t.bench macros 2> /dev/null | FileCheck --check-prefix=SCALE %s
 * RUN: %t.bench macros 2> /dev/null | FileCheck --check-prefix=BENCH %s
 * BENCH: cilkscale
 * BENCH-NEXT: tag,time (seconds)
 * BENCH-NEXT: {{^}},{{[0-9]+\.[0-9]+$}}
 * RUN: env CILKSCALE_OUT=%t.bench.csv %run-check %t.bench %t.serial
 *
 * RUN: not %weftcc -fopencilk -fcilktool=cilksan %s -o %t.x 2>&1 | FileCheck --check-prefix=TOOL %s
 * TOOL: weft-clang: error: -fcilktool=cilksan: Weft's Cilk tools are -fcilktool=cilkscale
 * RUN: %weftcc -fopencilk -fopencilk-enable-pedigrees -O2 %s -o %t.ped -lopencilk-pedigrees
 * RUN: %run-check %t.ped %t.serial
 * RUN: %t.ped macros | FileCheck --check-prefix=PED %s
 * PED: __cilk 200
 * PED-NEXT: pedigrees
 * PED-NOT: cilkscale
 * RUN: not %weftcxx -ftapir=serial -x c %s -o %t.x 2>&1 | FileCheck --check-prefix=TAPIR %s
 * TAPIR: weft-clang++: error: -ftapir=serial: Weft has one parallel back end
 * RUN: not %weftcc -fno-opencilk %s -o %t.x 2>&1 | FileCheck --check-prefix=OFF %s
 * OFF: weft-clang: error: -fno-opencilk: Weft cannot turn Cilk off
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <string.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

static int shared;
static void bump(void) { shared += 1; }

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "macros") == 0) {
#ifdef __cilk
    printf("__cilk %d\n", __cilk);
#endif
#ifdef __cilksan__
    printf("cilksan\n");
#endif
#ifdef __cilk_pedigrees__
    printf("pedigrees\n");
#endif
#ifdef __cilkscale__
    printf("cilkscale\n");
#endif
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "race") == 0) {
    cilk_spawn bump();
    bump();
    cilk_sync;
  }
  printf("fib(24) = %ld\n", fib(24));
  return 0;
}
