// Verify that a loop over a range that is a static cilk_reducer, serial or
// cilk_for, iterates the strand's view: Sema folds the loop's hidden
// `auto &&__range = vec;` to `vec` itself wherever it is read, which would
// iterate the leftmost view from any strand.
// RUN: %weftcxx -std=c++17 -O0 -S -emit-llvm %s -o - | FileCheck %s
#include <cilk/cilk.h>
#include <new>
#include <vector>
static void vzero(void *v) { new (v) std::vector<long>; }
static void vcat(void *l, void *r) {
  auto *a = static_cast<std::vector<long> *>(l);
  auto *b = static_cast<std::vector<long> *>(r);
  a->insert(a->end(), b->begin(), b->end());
  b->~vector();
}
std::vector<long> cilk_reducer(vzero, vcat) vec;
void sink(long);
// CHECK-LABEL: define {{.*}}@_Z11plain_rangev(
// CHECK: call {{.*}}@__weft_hyper_lookup(ptr {{.*}}@vec,
// CHECK-NOT: @vec
// CHECK: ret void
void plain_range() { for (long x : vec) sink(x); }
// CHECK-LABEL: define {{.*}}@_Z10pfor_rangev(
// CHECK: call {{.*}}@__weft_hyper_lookup(ptr {{.*}}@vec,
// CHECK-NOT: @vec
// CHECK: ret void
void pfor_range() { cilk_for (long x : vec) sink(x); }
