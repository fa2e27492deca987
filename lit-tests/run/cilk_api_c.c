// Verify <cilk/cilk_api.h> and <weft/api.h> in C: with the plugin, without
// it (the serial elision's stand-ins, also warning-free under -Wall), and in
// a file compiled without the plugin that defines WEFT_LINKS_RUNTIME and is
// linked into a Weft program (the runtime's answers).
// RUN: %clang -std=c11 -Wall -Werror -O2 %s -o %t.serial
// RUN: %weftcc -std=c11 -Wall -Werror -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: env WEFT_NWORKERS=3 %t count | FileCheck --check-prefix=THREE %s
// THREE: nworkers 3 3, worker 0
// RUN: %t.serial count | FileCheck --check-prefix=SERIAL %s
// SERIAL: nworkers 1 1, worker 0
// RUN: %clang -std=c11 -Wall -Werror -DWEFT_LINKS_RUNTIME -DPLAIN_PART -c %s -o %t.plain.o
// RUN: %weftcc -std=c11 -O2 %s %t.plain.o -DWITH_PLAIN_PART -o %t.mixed
// RUN: env WEFT_NWORKERS=3 %t.mixed count | FileCheck --check-prefix=MIXED %s
// MIXED: nworkers 3 3, worker 0
// MIXED-NEXT: without the plugin: nworkers 3, set 2: 2
#include <cilk/cilk.h>
#include <cilk/cilk_api.h>
#include <stdio.h>
#include <string.h>
#include <weft/api.h>

#ifdef PLAIN_PART
void plain_report(void) {
  printf("without the plugin: nworkers %u, set 2: %d\n", __cilkrts_get_nworkers(),
         weft_set_nworkers(2));
}
#else

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

#ifdef WITH_PLAIN_PART
void plain_report(void);
#else
static void plain_report(void) {}
#endif

int main(int argc, char **argv) {
  long f = fib(16);
  if (argc > 1 && strcmp(argv[1], "count") == 0) {
    printf("nworkers %u %u, worker %u\n", __cilkrts_get_nworkers(),
           weft_get_nworkers(), __cilkrts_get_worker_number());
    plain_report();
    return 0;
  }
  printf("fib(16) = %ld, worker %u\n", f, weft_get_worker_number());
  return 0;
}
#endif
