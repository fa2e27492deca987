/* Verify that what C library functions read and write counts: a spawned
 * strcpy into a buffer races with strlen of it in the continuation, and a
 * spawned qsort of an array with a read of it; strdup, strcmp, memcmp,
 * strchr and strncpy after the sync race with nothing. Each race names
 * the line of each call. In C and C++, at -O0 and -O2.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 2 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 2 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 2 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 2 66 %t2cxx | FileCheck %s
 * CHECK: 12 hello, world 0 1 1 hello 1 2
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char text[32] = "hello, world", copy[32], prefix[32];
static int numbers[8] = {5, 3, 8, 1, 9, 2, 7, 4};

__attribute__((noinline)) void fill(void) {
  strcpy(copy, text); // CHECK-DAG: write of 13 bytes in fill{{.*}}library_calls.c:[[@LINE]]:
}

static int ascending(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) void sort(void) {
  qsort(numbers, 8, sizeof numbers[0], ascending); // CHECK-DAG: write of 32 bytes in sort{{.*}}library_calls.c:[[@LINE]]:
}

int main(void) {
  cilk_spawn fill();
  size_t n = strlen(copy); // CHECK-DAG: read of 13 bytes in main{{.*}}library_calls.c:[[@LINE]]:
  cilk_sync;
  cilk_spawn sort();
  int first = numbers[0]; // CHECK-DAG: read of 4 bytes in main{{.*}}library_calls.c:[[@LINE]]:
  cilk_sync;
  char *dup = strdup(copy);
  int same = strcmp(dup, text) + memcmp(dup, text, 13);
  strncpy(prefix, copy, 5);
  printf("%zu %s %d %d %d %s %d %d\n", n, dup, same, !strchr(dup, 'z'),
         strchr(dup, 'w') != 0, prefix, first > 0, numbers[1]);
  free(dup);
  return 0;
}
