// Verify cilk_for in C (C99, C11 and C23): integer, unsigned and pointer
// loops, a body that spawns and syncs, a body with a VLA, nested loops,
// continue, `#pragma cilk grainsize` with an expression, a loop in a
// spawning function, the weft_for keyword and (C23) [[weft::parallel_for]];
// iterations write shared locals and a heap array in distinct slots.
// RUN: %clang -std=c99 -O2 %s -o %t.serial
// RUN: %weftcc -std=c99 -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcc -std=c11 -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %clang -std=c2x -O2 %s -o %t.c23.serial
// RUN: %weftcc -std=c2x -O1 %s -o %t.c23
// RUN: %run-check %t.c23 %t.c23.serial
// RUN: %weftcc -std=c11 -O1 -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
// LOWERED: call void @__weft_parallel_for(
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

static void fill(long *buf, int n, long v) {
  for (int k = 0; k < n; ++k)
    buf[k] = v * k;
}

static volatile int vn = 3000;

static long spawning_parent(int n) {
  long before = cilk_spawn fib(15);
  long slots[64];
  cilk_for (int i = 0; i < 64; ++i) {
    long buf[n + i % 5]; // a VLA per iteration, filled by a child
    cilk_spawn fill(buf, n + i % 5, i);
    long y = fib(i % 12);
    cilk_sync;
    long s = 0;
    for (int k = 0; k < n + i % 5; ++k)
      s += buf[k];
    slots[i] = s + y;
  }
  cilk_sync;
  long total = before;
  for (int i = 0; i < 64; ++i)
    total += slots[i];
  return total;
}

int main(void) {
  int n = vn;
  long *heap = calloc((size_t)n, sizeof(long));
  cilk_for (int i = 0; i < n; i++)
    heap[i] = fib(i % 16);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += heap[i];
  printf("spawning calls: %ld\n", s);

  unsigned count[40] = {0};
  cilk_for (unsigned u = 39; u > 0; --u) {
    if (u % 3 == 0)
      continue;
    count[u] = u * u;
  }
  s = 0;
  for (int i = 0; i < 40; i++)
    s += count[i];
  printf("unsigned, continue: %ld\n", s);

  char text[301];
  cilk_for (char *p = text; p < text + 300; p += 3)
    p[0] = 'a' + (char)((p - text) % 26), p[1] = '-', p[2] = '|';
  text[300] = 0;
  printf("pointer: %.60s\n", text);

  long grid[50][50];
#pragma cilk grainsize n / 1000 + 1
  cilk_for (int i = 0; i < 50; ++i)
    weft_for (int j = 49; j >= 0; j -= 1)
      grid[i][j] = (long)i * 100 + j;
  s = 0;
  for (int i = 0; i < 50; i++)
    for (int j = 0; j < 50; j++)
      s += grid[i][j] * (i + 1);
  printf("nested, grainsize: %ld\n", s);

  printf("spawning parent: %ld\n", spawning_parent(20));

#if __STDC_VERSION__ > 201710L
  long attr[100];
  [[weft::parallel_for]] for (long i = 0; i < 100; ++i) attr[i] = i * 7;
  s = 0;
  for (int i = 0; i < 100; i++)
    s += attr[i];
  printf("attribute: %ld\n", s);
#endif
  free(heap);
  return 0;
}
