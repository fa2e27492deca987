// Verify the Cilk Plus C reducer interface: CILK_C_REDUCER_OPADD, _OPMUL,
// _MAX and _MIN over several type tokens, and a user reducer declared with
// CILK_C_DECLARE_REDUCER whose operation is not commutative (appending to
// a buffer), which is in serial order only if views merge left to right.
// RUN: %clang -O2 %s -o %t.serial
// RUN: %t.serial 2000 | FileCheck %s
// RUN: %weftcc -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 2000
// RUN: %weftcc -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 500
// CHECK: sum=1999000 product=
// CHECK: max=1008 min=0
// CHECK: digits ok
#include <cilk/cilk.h>
#include <cilk/reducer_min_max.h>
#include <cilk/reducer_opadd.h>
#include <cilk/reducer_opmul.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable text: the view of the user reducer. */
typedef struct {
  char *text;
  size_t length, capacity;
} Text;

static void text_append(Text *t, const char *s, size_t n) {
  if (t->length + n + 1 > t->capacity) {
    t->capacity = 2 * (t->length + n + 1);
    t->text = realloc(t->text, t->capacity);
  }
  memcpy(t->text + t->length, s, n);
  t->length += n;
  t->text[t->length] = 0;
}
static void text_identity(void *r, void *view) {
  (void)r;
  memset(view, 0, sizeof(Text));
}
static void text_reduce(void *r, void *left, void *right) {
  (void)r;
  Text *R = right;
  if (R->length)
    text_append(left, R->text, R->length);
}
static void text_destroy(void *r, void *view) {
  (void)r;
  free(((Text *)view)->text);
}

CILK_C_REDUCER_OPADD(sum, long, 0);
CILK_C_REDUCER_OPMUL(product, ulong, 1);
CILK_C_REDUCER_MAX(max, int, INT_MIN);
CILK_C_REDUCER_MIN(min, uint, UINT_MAX);
CILK_C_DECLARE_REDUCER(Text) digits =
    CILK_C_INIT_REDUCER(Text, text_reduce, text_identity, text_destroy,
                        {0, 0, 0});

static int score(long i) { return (int)((i * 7919) % 1009); }

static void leaf(long i) {
  REDUCER_VIEW(sum) += i;
  REDUCER_VIEW(product) *= 2 * (unsigned long)i + 1;
  CILK_C_REDUCER_MAX_CALC(REDUCER_VIEW(max), score(i));
  CILK_C_REDUCER_MIN_CALC(REDUCER_VIEW(min), (unsigned)score(i));
  char digit = (char)('0' + i % 10);
  text_append(&REDUCER_VIEW(digits), &digit, 1);
}

static void each(long lo, long hi) {
  if (hi - lo == 1) {
    leaf(lo);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  cilk_spawn each(lo, mid);
  each(mid, hi);
  cilk_sync;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  CILK_C_REGISTER_REDUCER(sum);
  CILK_C_REGISTER_REDUCER(product);
  CILK_C_REGISTER_REDUCER(max);
  CILK_C_REGISTER_REDUCER(min);
  CILK_C_REGISTER_REDUCER(digits);
  each(0, n);
  int ok = digits.value.length == (size_t)n;
  for (long i = 0; ok && i < n; ++i)
    ok = digits.value.text[i] == '0' + i % 10;
  CILK_C_UNREGISTER_REDUCER(sum);
  CILK_C_UNREGISTER_REDUCER(product);
  CILK_C_UNREGISTER_REDUCER(max);
  CILK_C_UNREGISTER_REDUCER(min);
  CILK_C_UNREGISTER_REDUCER(digits);
  printf("sum=%ld product=%lu\n", sum.value, product.value);
  printf("max=%d min=%u\n", max.value, min.value);
  printf("digits %s\n", ok ? "ok" : "WRONG");
  free(digits.value.text);
  return 0;
}
