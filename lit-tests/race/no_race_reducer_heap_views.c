/* Verify that a reducer whose view owns heap memory (a growing array,
 * appended to by every leaf of a recursion) is race-free: in a real run
 * a strand that a steal split off gets a view of its own, so the race
 * run gives every continuation one, and folds them in serial order at the
 * sync. The list and the text must come out in the serial elision's
 * order. In C and C++, at -O0 and -O2.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 0 0 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 0 0 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 0 0 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 0 0 %t2cxx | FileCheck %s
 * CHECK: 200 items in order, sum 19900, 60 words in order
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int *items;
  size_t count, capacity;
} list;

static void push(list *l, int item) {
  if (l->count == l->capacity) {
    l->capacity = l->capacity ? 2 * l->capacity : 4;
    l->items = (int *)realloc(l->items, l->capacity * sizeof(int));
  }
  l->items[l->count++] = item;
}

static void empty_list(void *view) {
  list *l = (list *)view;
  l->items = NULL;
  l->count = l->capacity = 0;
}

static void concatenate(void *left, void *right) {
  list *r = (list *)right;
  for (size_t i = 0; i < r->count; ++i)
    push((list *)left, r->items[i]);
  free(r->items);
}

typedef list cilk_reducer(empty_list, concatenate) list_reducer;

static void collect(list_reducer *out, int lo, int hi) {
  if (hi - lo == 1) {
    push(&*out, lo); /* the strand's view */
    return;
  }
  int mid = lo + (hi - lo) / 2;
  cilk_spawn collect(out, lo, mid);
  collect(out, mid, hi);
  cilk_sync;
}

/* Words of a string view, a char buffer grown with realloc. */
typedef struct {
  char *text;
  size_t length;
} buffer;

static void empty_buffer(void *view) {
  buffer *b = (buffer *)view;
  b->text = NULL;
  b->length = 0;
}

static void append_text(buffer *b, const char *s, size_t n) {
  b->text = (char *)realloc(b->text, b->length + n + 1);
  memcpy(b->text + b->length, s, n);
  b->length += n;
  b->text[b->length] = '\0';
}

static void join(void *left, void *right) {
  buffer *r = (buffer *)right;
  if (r->length)
    append_text((buffer *)left, r->text, r->length);
  free(r->text);
}

int main(void) {
  list_reducer numbers = {NULL, 0, 0};
  collect(__builtin_addressof(numbers), 0, 200);
  int ordered = 1;
  long sum = 0;
  for (size_t i = 0; i < numbers.count; ++i) {
    ordered &= numbers.items[i] == (int)i;
    sum += numbers.items[i];
  }
  int words = 0, words_ordered = 1;
  buffer cilk_reducer(empty_buffer, join) text = {NULL, 0};
  cilk_for (int i = 0; i < 60; ++i) {
    char word[8];
    int n = snprintf(word, sizeof word, "%c%d ", 'a' + i % 26, i);
    append_text(&text, word, (size_t)n);
  }
  char expected[8];
  const char *at = text.text;
  for (int i = 0; i < 60; ++i) {
    int n = snprintf(expected, sizeof expected, "%c%d ", 'a' + i % 26, i);
    words_ordered &= strncmp(at, expected, (size_t)n) == 0;
    at += n;
    ++words;
  }
  free(text.text);
  printf("%zu items %s, sum %ld, %d words %s\n", numbers.count,
         ordered ? "in order" : "out of order", sum, words,
         words_ordered ? "in order" : "out of order");
  free(numbers.items);
  return 0;
}
