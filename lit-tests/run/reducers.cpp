// Verify that the Cilk Plus reducers give the serial elision's results
// whatever the steal pattern: sums, products, extremes with their first
// index, list append and prepend, output to a stream, a non-commutative
// user monoid (string concatenation), a reducer local to a function that
// runs in stolen strands, reducers in a cilk_for body (the list in the
// loop's order), and views with a destructor, each destroyed exactly once. The lists, the string and the
// output are in serial order only if views merge left to right.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 3000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 3000
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 1000
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %until-stolen %t.o2 3000 2>&1 >/dev/null | FileCheck --check-prefix=STOLEN %s
// STOLEN: weft-stats: workers=2 {{.*}}steals={{[1-9][0-9]*}}
// CHECK: sum=4498500 product=
// CHECK: max=
// CHECK: list append ok, prepend ok
// CHECK: concat ok
// CHECK: local sums ok
// CHECK: cilk_for sum=4498500, order ok
// CHECK: live views 0
#include <cilk/cilk.h>
#include <cilk/reducer_list.h>
#include <cilk/reducer_min_max.h>
#include <cilk/reducer_opadd.h>
#include <cilk/reducer_opmul.h>
#include <cilk/reducer_ostream.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

static long score(long i) { return (i * 7919) % 1009; }

// Divide and conquer over [lo, hi): one leaf call per index, in serial order.
template <class Leaf> static void each(long lo, long hi, Leaf &leaf) {
  if (hi - lo == 1) {
    leaf(lo);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  cilk_spawn each(lo, mid, leaf);
  each(mid, hi, leaf);
  cilk_sync;
}

struct Concat {
  using value_type = std::string;
  using view_type = std::string;
  static void identity(std::string *v) { new (v) std::string(); }
  static void reduce(std::string *left, std::string *right) { *left += *right; }
  static void destroy(std::string *v) { v->~basic_string(); }
};

static std::atomic<long> live_views{0};
struct Counted {
  long value = 0;
  Counted() { live_views.fetch_add(1); }
  explicit Counted(long v) : value(v) { live_views.fetch_add(1); }
  ~Counted() { live_views.fetch_sub(1); }
};
struct CountedSum {
  using value_type = Counted;
  using view_type = Counted;
  static void identity(Counted *v) { new (v) Counted(); }
  static void reduce(Counted *left, Counted *right) { left->value += right->value; }
  static void destroy(Counted *v) { v->~Counted(); }
};

// A function with its own reducer, run in many strands at once.
static long local_sum(long lo, long hi) {
  cilk::reducer<cilk::op_add<long>> sum;
  auto add = [&](long i) { *sum += i; };
  each(lo, hi, add);
  return sum.get_value();
}

static long sum_of_local_sums(long lo, long hi) {
  if (hi - lo <= 64)
    return local_sum(lo, hi);
  long mid = lo + (hi - lo) / 2;
  long left = cilk_spawn sum_of_local_sums(lo, mid);
  long right = sum_of_local_sums(mid, hi);
  cilk_sync;
  return left + right;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000;
  {
    cilk::reducer_opadd<long> sum;
    cilk::reducer<cilk::op_mul<unsigned long>> product(1ul);
    cilk::reducer_max_index<long, long> max_at;
    cilk::reducer<cilk::op_min<long>> min;
    cilk::reducer_list_append<long> appended;
    cilk::reducer<cilk::op_list_prepend<long>> prepended;
    weft::reducer<Concat> text;
    weft::reducer<CountedSum> counted;
    cilk::reducer_ostream out(std::cout);
    auto leaf = [&](long i) {
      sum += i;
      *product *= 2 * static_cast<unsigned long>(i) + 1;
      max_at.calc_max(i, score(i));
      *min = cilk::min_of(*min, score(i) - i);
      appended.push_back(i);
      prepended->push_front(i);
      *text += std::to_string(i % 10);
      counted->value += i;
      if (i % 500 == 0)
        *out << "line " << i << std::endl;
    };
    each(0, n, leaf);

    std::printf("sum=%ld product=%lu\n", sum.get_value(), product.get_value());
    std::printf("max=%ld at %ld, min=%ld\n", max_at.get_value(),
                max_at.get_index(), min.get_value());
    bool append_ok = static_cast<long>(appended.get_value().size()) == n;
    long expect = 0;
    for (long v : appended.get_value())
      append_ok &= v == expect++;
    bool prepend_ok = static_cast<long>(prepended.get_value().size()) == n;
    expect = n;
    for (long v : prepended.get_value())
      prepend_ok &= v == --expect;
    std::printf("list append %s, prepend %s\n", append_ok ? "ok" : "WRONG",
                prepend_ok ? "ok" : "WRONG");
    std::string serial;
    for (long i = 0; i < n; ++i)
      serial += std::to_string(i % 10);
    std::printf("concat %s\n", text.get_value() == serial ? "ok" : "WRONG");
    long total = sum_of_local_sums(0, n);
    std::printf("local sums %s\n", total == n * (n - 1) / 2 ? "ok" : "WRONG");
    std::printf("counted=%ld\n", counted.get_value().value);

    cilk::reducer<cilk::op_add<long>> loop_sum;
    cilk::reducer<cilk::op_list_append<long>> loop_order;
    cilk_for (long i = 0; i < n; ++i) {
      *loop_sum += i;
      loop_order->push_back(i);
    }
    bool in_order = static_cast<long>(loop_order.get_value().size()) == n;
    expect = 0;
    for (long v : loop_order.get_value())
      in_order &= v == expect++;
    std::printf("cilk_for sum=%ld, order %s\n", loop_sum.get_value(),
                in_order ? "ok" : "WRONG");
  }
  std::printf("live views %ld\n", live_views.load());
  return 0;
}
