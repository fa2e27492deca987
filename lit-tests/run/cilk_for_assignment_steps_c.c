/* Verify cilk_for steps written as assignments in C (C99 and C11), as in
 * cilk_for_assignment_steps.cpp: `i = i + s`, `i = s + i` and `i = i - s`
 * over signed and unsigned integers and pointers, constant, run-time and
 * negative strides, a size_t stepped by (1 << 21), the weft_for keyword and
 * a body that spawns; iterations write a heap array in distinct slots.
 * RUN: %clang -std=c99 -O2 %s -o %t.serial
 * RUN: %weftcc -std=c99 -O2 %s -o %t
 * RUN: %run-check %t %t.serial
 * RUN: %weftcc -std=c11 -O0 %s -o %t.o0
 * RUN: %run-check %t.o0 %t.serial
 * RUN: %weftcc -std=c11 -O1 -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
 * LOWERED: call void @__weft_parallel_for(
 */
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

static volatile int vn = 3000, vs = 7, vneg = -3;
static volatile size_t vbytes = (size_t)24 << 21;

static long total(const long *a, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * (i % 7 + 1);
  return s;
}

int main(void) {
  int n = vn, s = vs, neg = vneg;
  long *a = calloc((size_t)n, sizeof(long));

  cilk_for (int i = 0; i < n; i = i + s)
    a[i] = fib(i % 14);
  printf("i = i + s: %ld\n", total(a, n));

  cilk_for (int i = n - 1; i >= 0; i = i - 3)
    a[i] += i;
  printf("i = i - 3: %ld\n", total(a, n));

  cilk_for (int i = n - 2; i > 0; i = i + neg)
    a[i] -= 5;
  printf("i = i + neg: %ld\n", total(a, n));

  weft_for (unsigned u = 0; u < (unsigned)n; u = 2u + u)
    a[u] *= 3;
  printf("u = 2u + u: %ld\n", total(a, n));

  size_t bytes = vbytes;
  char *r = malloc(bytes);
  cilk_for (size_t i = 0; i < bytes; i = i + (1 << 21))
    r[i] = (char)(i >> 21);
  long pages = 0;
  for (size_t i = 0; i < bytes; i += 1 << 21)
    pages += r[i];
  printf("size_t, i = i + (1 << 21): %ld\n", pages);

  cilk_for (long *p = a; p < a + n; p = p + 5)
    *p = (p - a) % 11;
  cilk_for (long *p = a + n - 1; p >= a + 1; p = p - 2)
    *p += 1;
  cilk_for (long *p = a; p != a + n; p = 3 + p)
    *p *= 2;
  printf("pointers: %ld\n", total(a, n));

  free(r);
  free(a);
  return 0;
}
