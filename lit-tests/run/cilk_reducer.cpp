// Verify OpenCilk 2's reducer qualifier, `T cilk_reducer(I, R)`, on local,
// static and global variables of type long, double and a struct, updated
// from cilk_for bodies and from recursive spawns, directly, through a
// `T cilk_reducer(I, R) *p` parameter (each `*p` and `p->m` a view), and
// from a lambda that captures the reducer by reference; a local reducer in
// a function that runs in stolen strands, and one declared in a loop body
// (registered and unregistered once per iteration). The output must equal
// the serial elision's at P=1,2,4 with and without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 3000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 3000
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 500
// CHECK: local=4498500 static=4498500 global=4498500
// CHECK: tree=2047 leaves=1024
// CHECK: pointer=4498500 half=1125.00
// CHECK: stats n=3000 min=0 max=2999
// CHECK: lambda=4498500
// CHECK: nested=120 per_call=560
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>

static void zero_long(void *v) { *static_cast<long *>(v) = 0; }
static void add_long(void *l, void *r) {
  *static_cast<long *>(l) += *static_cast<long *>(r);
}
static void zero_double(void *v) { *static_cast<double *>(v) = 0.0; }
static void add_double(void *l, void *r) {
  *static_cast<double *>(l) += *static_cast<double *>(r);
}

struct Stats {
  long n, min, max;
};
static void stats_identity(void *v) {
  *static_cast<Stats *>(v) = Stats{0, 1L << 40, -(1L << 40)};
}
static void stats_reduce(void *l, void *r) {
  Stats *a = static_cast<Stats *>(l), *b = static_cast<Stats *>(r);
  a->n += b->n;
  if (b->min < a->min)
    a->min = b->min;
  if (b->max > a->max)
    a->max = b->max;
}

long cilk_reducer(zero_long, add_long) global_sum = 0;

static long local_sum(long n) {
  long cilk_reducer(zero_long, add_long) sum = 0;
  cilk_for (long i = 0; i < n; ++i)
    sum += i;
  return sum;
}

static long static_sum(long n) {
  static long cilk_reducer(zero_long, add_long) sum;
  sum = 0;
  cilk_for (long i = 0; i < n; ++i)
    sum += i;
  return sum;
}

// Recursive spawns: every node adds 1, every leaf adds to a second reducer.
static long cilk_reducer(zero_long, add_long) nodes;
static void tree(int depth, long cilk_reducer(zero_long, add_long) *leaves) {
  ++nodes;
  if (depth == 0) {
    *leaves += 1;
    return;
  }
  cilk_spawn tree(depth - 1, leaves);
  tree(depth - 1, leaves);
  cilk_sync;
}

static void add_range(long lo, long hi,
                      long cilk_reducer(zero_long, add_long) *sum,
                      double cilk_reducer(zero_double, add_double) *half) {
  if (hi - lo <= 16) {
    for (long i = lo; i < hi; ++i) {
      *sum += i;
      *half += (i % 4) * 0.25;
    }
    return;
  }
  long mid = lo + (hi - lo) / 2;
  cilk_spawn add_range(lo, mid, sum, half);
  add_range(mid, hi, sum, half);
}

static void record(Stats cilk_reducer(stats_identity, stats_reduce) *s,
                   long x) {
  s->n += 1;
  if (x < s->min)
    s->min = x;
  if (x > (*s).max)
    (*s).max = x;
}

// A local reducer in a function that each strand of a loop calls: stolen
// strands declare, use and unregister their own.
static long per_call(long k) {
  long cilk_reducer(zero_long, add_long) inner = 0;
  cilk_for (long j = 0; j < k; ++j)
    inner += j;
  return inner;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000;
  long a = local_sum(n);
  long b = static_sum(n);
  cilk_for (long i = 0; i < n; ++i)
    global_sum += i;
  std::printf("local=%ld static=%ld global=%ld\n", a, b, global_sum);

  long cilk_reducer(zero_long, add_long) leaves = 0;
  nodes = 0;
  tree(10, &leaves);
  std::printf("tree=%ld leaves=%ld\n", nodes, leaves);

  long cilk_reducer(zero_long, add_long) sum = 0;
  double cilk_reducer(zero_double, add_double) half = 0;
  add_range(0, n, &sum, &half);
  std::printf("pointer=%ld half=%.2f\n", sum, half);

  Stats cilk_reducer(stats_identity, stats_reduce) stats;
  stats_identity(&stats);
  cilk_for (long i = 0; i < n; ++i)
    record(&stats, (i * 7919) % n);
  std::printf("stats n=%ld min=%ld max=%ld\n", stats.n, stats.min, stats.max);

  long cilk_reducer(zero_long, add_long) by_lambda = 0;
  auto add = [&](long i) { by_lambda += i; };
  cilk_for (long i = 0; i < n; ++i)
    add(i);
  std::printf("lambda=%ld\n", by_lambda);

  long cilk_reducer(zero_long, add_long) nested = 0;
  long cilk_reducer(zero_long, add_long) calls = 0;
  cilk_for (int i = 0; i < 16; ++i) {
    long cilk_reducer(zero_long, add_long) mine = 0;
    for (int j = 0; j < i; ++j)
      mine += 1;
    nested += mine;
    calls += per_call(i);
  }
  std::printf("nested=%ld per_call=%ld\n", nested, calls);
  return 0;
}
