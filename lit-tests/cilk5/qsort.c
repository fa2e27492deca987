/* Parallel quicksort in C11. Each call picks its pivot as the median of a
 * sample whose length grows with the range (a VLA of indices), partitions in
 * place, spawns the sort of the smaller side and loops on the larger one, so
 * a single frame spawns many children into disjoint parts of the parent's
 * array before its one sync. Small ranges go to insertion sort. Checked
 * against the C library's qsort() element by element, on keys drawn from a
 * small range (many equal keys) and from a large one.
 * RUN: %clang -std=c11 -O2 %s -o %t.serial
 * RUN: %t.serial 200000 | FileCheck %s
 * RUN: %weftcc -std=c11 -O2 %s -o %t.o2
 * RUN: %run-check %t.o2 %t.serial 50000
 * RUN: %weftcc -std=c11 -O1 -fsanitize=address %s -o %t.asan
 * RUN: %run-check %t.asan %t.serial 10000
 * CHECK: qsort n=200000 range=100 sorted ok
 * CHECK: qsort n=200000 range=1000000000 sorted ok
 */
#include <cilk/cilk.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CUTOFF = 16 };

static void insertion_sort(long *a, long n) {
  for (long i = 1; i < n; ++i) {
    long x = a[i], j = i;
    for (; j > 0 && a[j - 1] > x; --j)
      a[j] = a[j - 1];
    a[j] = x;
  }
}

/* Moves the median of k evenly spaced elements of a[0..n) (k odd, n > k)
 * to a[0]. The sample is a VLA of indices, sorted by value. */
static void median_to_front(long *a, long n) {
  int k = n < 1000 ? 3 : n < 100000 ? 9 : 31;
  long index[k];
  for (int i = 0; i < k; ++i) {
    long at = (n - 1) / (k - 1) * i, j = i;
    for (; j > 0 && a[index[j - 1]] > a[at]; --j)
      index[j] = index[j - 1];
    index[j] = at;
  }
  long m = index[k / 2], t = a[0];
  a[0] = a[m];
  a[m] = t;
}

/* Hoare partition around the pivot a[0]; returns the split point p, with
 * a[0..p) <= pivot <= a[p..n). Because the pivot is the first element,
 * 0 < p < n, so both sides are smaller than the range. */
static long partition(long *a, long n) {
  long pivot = a[0], i = -1, j = n;
  for (;;) {
    do
      ++i;
    while (a[i] < pivot);
    do
      --j;
    while (a[j] > pivot);
    if (i >= j)
      return j + 1;
    long t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

static void pqsort(long *a, long n) {
  while (n > CUTOFF) {
    median_to_front(a, n);
    long p = partition(a, n);
    /* Spawn the smaller side; keep the larger one in this frame. */
    if (p < n - p) {
      cilk_spawn pqsort(a, p);
      a += p;
      n -= p;
    } else {
      cilk_spawn pqsort(a + p, n - p);
      n = p;
    }
  }
  insertion_sort(a, n);
  cilk_sync;
}

static int compare_long(const void *x, const void *y) {
  long a = *(const long *)x, b = *(const long *)y;
  return (a > b) - (a < b);
}

static int check(long n, long range, uint64_t seed) {
  long *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (long i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    a[i] = (long)((seed >> 33) % (uint64_t)range) - range / 2;
  }
  memcpy(b, a, n * sizeof *a);
  pqsort(a, n);
  qsort(b, n, sizeof *b, compare_long);
  int ok = memcmp(a, b, n * sizeof *a) == 0;
  printf("qsort n=%ld range=%ld sorted %s\n", n, range, ok ? "ok" : "WRONG");
  free(a);
  free(b);
  return ok;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000;
  if (n < 1 || n > 10000000) {
    fprintf(stderr, "usage: qsort [1..10000000]\n");
    return 2;
  }
  int ok = check(n, 100, 7);
  ok &= check(n, 1000000000, 8);
  return ok ? 0 : 1;
}
