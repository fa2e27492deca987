// Verify that OpenCilk 2's cilk_reducer type qualifier, which Weft does not
// implement, is one clear error at each declaration that uses it (in a
// variable, an alias template, a C declaration), naming the reducers that
// replace it; and that without the plugin it vanishes, so the serial
// elision compiles and runs.
// RUN: %weftcxx -fsyntax-only -Xclang -verify %s
// RUN: %weftcc -x c -fsyntax-only -Xclang -verify=c %s
// RUN: %clangxx %s -o %t.serial && %t.serial | FileCheck %s
// CHECK: 45 3
#include <cilk/cilk.h>
#include <stdio.h>

static void zero(void *v) { *(long *)v = 0; }
static void plus(void *l, void *r) { *(long *)l += *(long *)r; }

#ifdef __cplusplus
template <class T> using sum_of = T cilk_reducer(zero, plus); // expected-error {{cilk_reducer is not supported by Weft: use cilk::opadd_reducer<T> from <cilk/opadd_reducer.h>, cilk::reducer<M> from <cilk/reducer_opadd.h> and its siblings, or weft::reducer<M>}}
#else
typedef long cilk_reducer(zero, plus) sum_of_long; // c-error {{cilk_reducer is not supported by Weft}}
#endif

int main(void) {
  long cilk_reducer(zero, plus) sum = 0; // expected-error {{cilk_reducer is not supported}} c-error {{cilk_reducer is not supported}}
  for (int i = 0; i < 10; ++i)
    sum += i;
#ifdef __cplusplus
  sum_of<long> other = 1;
#else
  sum_of_long other = 1;
#endif
  other += 2;
  printf("%ld %ld\n", sum, (long)other);
  return 0;
}
