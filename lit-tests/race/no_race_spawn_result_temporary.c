/* Verify that --weft-race reports nothing on the stack slots that the
 * parallel children of a spawning loop reuse: the temporary that a
 * spawned call's struct result lands in before it is copied into part[i]
 * (every iteration's child writes it, at the same address, and it is dead
 * after each copy; its lifetime.end tells the detector), and the VLAs and
 * alloca() blocks of children that restore the stack before they return.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 0 0 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 0 0 %t2 | FileCheck %s
 * CHECK: 84 104
 * CHECK: races found: 0
 */
#include <cilk/cilk.h>
#include <stdio.h>

struct pair {
  long a, b;
};

struct pair make(int i) {
  struct pair p = {i, 2 * i};
  return p;
}

/* A VLA and alloca() blocks, freed by the restore at the VLA's scope end,
 * before the function returns; each call is a spawned child of the loop
 * below, logically parallel with its siblings. */
__attribute__((noinline)) int scratch(int n) {
  int sum = 0;
  {
    int vla[n];
    for (int i = 0; i < n; ++i)
      vla[i] = i;
    for (int i = 0; i < n; ++i) {
      char *b = __builtin_alloca(8);
      b[0] = (char)i;
      sum += vla[i] + b[0];
    }
  }
  return sum;
}

void spawn_all(struct pair *part, int n) {
  for (int i = 0; i < n; ++i)
    part[i] = cilk_spawn make(i);
  cilk_sync;
}

int main(void) {
  struct pair part[8];
  spawn_all(part, 8);
  long sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += part[i].a + part[i].b;
  int got[4];
  for (int i = 0; i < 4; ++i)
    got[i] = cilk_spawn scratch(4 + i);
  cilk_sync;
  printf("%ld %d\n", sum, got[0] + got[1] + got[2] + got[3]);
  return 0;
}
