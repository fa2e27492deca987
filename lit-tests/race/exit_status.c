/* Verify that a program built with --weft-race keeps its own exit status
 * when it has no race, and that a race makes the status 66 even when the
 * program returns 0, or WEFT_RACE_EXITCODE's value.
 * RUN: %weftcc --weft-race -O2 -g %s -o %t
 * RUN: %expect-races 0 3 %t 3 | FileCheck --check-prefix=CLEAN %s
 * RUN: %expect-races 0 0 %t 0 | FileCheck --check-prefix=CLEAN %s
 * RUN: %expect-races 1 66 %t 0 race | FileCheck --check-prefix=RACE %s
 * RUN: env WEFT_RACE_EXITCODE=0 %expect-races 1 0 %t 0 race | FileCheck --check-prefix=RACE %s
 * CLEAN: weft-race: races found: 0
 * RACE: weft-race:
 * RACE: weft-race: races found: 1
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cell;

__attribute__((noinline)) void set(int v) { cell = v; }

int main(int argc, char **argv) {
  int status = argc > 1 ? atoi(argv[1]) : 0;
  int race = argc > 2 && strcmp(argv[2], "race") == 0;
  cilk_spawn set(1);
  if (race)
    set(2);
  cilk_sync;
  printf("%d\n", cell);
  return status;
}
