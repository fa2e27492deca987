// Verify that --weft-race reports nothing on updates through reducer views
// from logically parallel strands: a Cilk Plus reducer_opadd, a
// weft::reducer of a user monoid, OpenCilk 2's cilk::opadd_reducer and a
// cilk_reducer variable, each updated from a cilk_for and from recursive
// spawns; the final values are right.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 0 0 %t2 | FileCheck %s
// CHECK: plus=499500 sum=499500 open=499500 qual=499500 fib=832040
// CHECK: races found: 0
#include <cilk/cilk.h>
#include <cilk/opadd_reducer.h>
#include <cilk/reducer_opadd.h>
#include <weft/reducer.h>

#include <cstdio>
#include <new>

struct Sum {
  using value_type = long;
  using view_type = long;
  static void identity(long *v) { new (v) long(0); }
  static void reduce(long *left, long *right) { *left += *right; }
  static void destroy(long *) {}
};

void zero_long(void *v) { *static_cast<long *>(v) = 0; }
void add_long(void *l, void *r) {
  *static_cast<long *>(l) += *static_cast<long *>(r);
}

cilk::reducer_opadd<long> plus;
weft::reducer<Sum> sum;
cilk::opadd_reducer<long> open_sum = 0;
long cilk_reducer(zero_long, add_long) qual = 0;
long cilk_reducer(zero_long, add_long) fib_sum = 0;

void fib(int n) {
  if (n < 2) {
    fib_sum += n;
    return;
  }
  cilk_spawn fib(n - 1);
  fib(n - 2);
  cilk_sync;
}

int main() {
  cilk_for (int i = 0; i < 1000; ++i) {
    plus += i;
    *sum += i;
    open_sum += i;
    qual += i;
  }
  fib(30);
  std::printf("plus=%ld sum=%ld open=%ld qual=%ld fib=%ld\n", plus.get_value(),
              sum.get_value(), static_cast<long>(open_sum), qual, fib_sum);
  return 0;
}
