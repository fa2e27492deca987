/* Verify that calls of library functions that Clang also knows as
 * builtins can be spawned, as with OpenCilk: strcpy and printf as
 * statements, strdup and labs with their results stored, in C and in C++,
 * at -O0 and -O2, against the serial elision with and without forced
 * steals; each really is a spawn (130 counted at one worker). A builtin of
 * the compiler's own runs in a function of its own (spawn_builtins.c).
 * RUN: %clang -O2 %s -o %t.serial
 * RUN: %weftcc -O2 %s -o %t
 * RUN: %run-check %t %t.serial
 * RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t 2>&1 | FileCheck %s
 * CHECK: spawned printf
 * CHECK-NEXT: 2371
 * CHECK-NEXT: weft-stats: workers=1 threads=1 spawns=130 {{.*}}
 * RUN: %weftcc -O0 %s -o %t.o0
 * RUN: %run-check %t.o0 %t.serial
 * RUN: %weftcxx -x c++ -O2 %s -o %t.cxx
 * RUN: %run-check %t.cxx %t.serial
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char copies_in_place[64][32];

int main(void) {
  const char *text = "hello, spawned world";
  char *copies[64];
  for (int i = 0; i < 64; ++i) {
    cilk_spawn strcpy(copies_in_place[i], text);
    copies[i] = cilk_spawn strdup(text + (i % 7));
  }
  cilk_sync;
  long sum = 0;
  for (int i = 0; i < 64; ++i) {
    sum += (long)strlen(copies_in_place[i]) + (long)strlen(copies[i]);
    free(copies[i]);
  }
  long total = cilk_spawn labs(-sum);
  cilk_spawn printf("spawned printf\n");
  cilk_sync;
  printf("%ld\n", total);
  return 0;
}
