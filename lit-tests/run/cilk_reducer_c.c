/* Verify OpenCilk 2's reducer qualifier in C: local, static and global
 * reducers of int and of a struct, updated from cilk_for bodies, recursive
 * spawns and a `T cilk_reducer(I, R) *p` parameter, and a buffer whose
 * reduce appends (not commutative). The output must equal the serial
 * elision's at P=1,2,4 with and without forced steals.
 * RUN: %clang -O2 %s -o %t.serial
 * RUN: %t.serial 3000 | FileCheck %s
 * RUN: %weftcc -O2 %s -o %t
 * RUN: %run-check %t %t.serial 3000
 * RUN: %weftcc -O0 %s -o %t.o0
 * RUN: %run-check %t.o0 %t.serial 400
 * CHECK: local=4498500 static=4498500 global=4498500
 * CHECK: fib=832040 calls=2692537
 * CHECK: range lo=0 hi=2999 count=3000
 * CHECK: text ok
 */
#include <cilk/cilk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void zero(void *v) { *(int *)v = 0; }
void plus(void *l, void *r) { *(int *)l += *(int *)r; }

struct range {
  long lo, hi, count;
};
static void range_identity(void *v) {
  struct range *r = v;
  r->lo = 1L << 40;
  r->hi = -(1L << 40);
  r->count = 0;
}
static void range_reduce(void *l, void *r) {
  struct range *a = l, *b = r;
  if (b->lo < a->lo)
    a->lo = b->lo;
  if (b->hi > a->hi)
    a->hi = b->hi;
  a->count += b->count;
}

typedef struct {
  char *text;
  size_t length, capacity;
} buffer;
static void buffer_identity(void *v) { memset(v, 0, sizeof(buffer)); }
static void buffer_add(buffer *b, const char *s, size_t n) {
  if (b->length + n + 1 > b->capacity) {
    b->capacity = 2 * (b->length + n + 1);
    b->text = realloc(b->text, b->capacity);
  }
  memcpy(b->text + b->length, s, n);
  b->length += n;
  b->text[b->length] = 0;
}
static void buffer_append(void *l, void *r) {
  buffer *right = r;
  if (right->length)
    buffer_add(l, right->text, right->length);
  free(right->text);
}

int cilk_reducer(zero, plus) global = 0;
int cilk_reducer(zero, plus) calls;

static long fib(int n) {
  calls += 1;
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

static void note(struct range cilk_reducer(range_identity, range_reduce) *r,
                 long x) {
  if (x < r->lo)
    r->lo = x;
  if (x > r->hi)
    r->hi = x;
  (*r).count += 1;
}

static int local_sum(int n) {
  int cilk_reducer(zero, plus) sum = 0;
  cilk_for (int i = 0; i < n; ++i)
    sum += i;
  return sum;
}

static int static_sum(int n) {
  static int cilk_reducer(zero, plus) sum;
  cilk_for (int i = 0; i < n; ++i)
    sum += i;
  return sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  cilk_for (int i = 0; i < n; ++i)
    global += i;
  int a = local_sum(n), b = static_sum(n);
  printf("local=%d static=%d global=%d\n", a, b, global);

  calls = 0;
  long f = fib(30);
  printf("fib=%ld calls=%d\n", f, calls);

  struct range cilk_reducer(range_identity, range_reduce) r;
  range_identity(&r);
  cilk_for (int i = 0; i < n; ++i)
    note(&r, (i * 7919L) % n);
  printf("range lo=%ld hi=%ld count=%ld\n", r.lo, r.hi, r.count);

  buffer cilk_reducer(buffer_identity, buffer_append) text;
  buffer_identity(&text);
  cilk_for (int i = 0; i < n; ++i) {
    char item[16];
    int len = snprintf(item, sizeof item, "%d,", i);
    buffer_add(&text, item, (size_t)len);
  }
  buffer expected;
  buffer_identity(&expected);
  for (int i = 0; i < n; ++i) {
    char item[16];
    int len = snprintf(item, sizeof item, "%d,", i);
    buffer_add(&expected, item, (size_t)len);
  }
  int same = text.length == expected.length &&
             memcmp(text.text, expected.text, text.length) == 0;
  printf("text %s\n", same ? "ok" : "WRONG");
  free(text.text);
  free(expected.text);
  return 0;
}
