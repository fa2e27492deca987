// Verify that __cilkrts_get_nworkers() is declared pure (cilk/cilk_api.h),
// so that a loop body that asks for the count and drops the answer, as
// parlaylib's allocator does on each element it constructs, loses the
// call, as the serial elision loses its constant: the outlined chunk
// calls nothing and needs no landing pad. The answer itself is still the
// runtime's (main prints it), and a count set between two asks is seen
// (run/cilk_set_param.cpp). Results are checked against the serial
// elision, with forced steals.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 1000
// RUN: %run-check %t %t.serial 100003
// RUN: env WEFT_NWORKERS=3 %t 10 | FileCheck --check-prefix=COUNT %s
//
// CHECK: declare {{.*}}@__cilkrts_get_nworkers() {{.*}}#[[PURE:[0-9]+]]
// CHECK-LABEL: define internal void @_Z4initP4Iteml.weft.pfor(
// CHECK-NOT: call
// CHECK-NOT: invoke
// CHECK: ret void
// CHECK: attributes #[[PURE]] = { {{.*}}memory(read)
// COUNT: nworkers 3
#include <cilk/cilk.h>
#include <cilk/cilk_api.h>

#include <cstdio>
#include <cstdlib>

struct Item {
  long *data = nullptr;
  long size = 0;
};

void init(Item *a, long n) {
  cilk_for (long i = 0; i < n; ++i) {
    (void)__cilkrts_get_nworkers();
    a[i] = Item();
    a[i].size = i;
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  Item *a = new Item[n];
  init(a, n);
  long sum = 0;
  for (long i = 0; i < n; ++i)
    sum += a[i].size + (a[i].data != nullptr);
  std::printf("sum %ld\n", sum);
  if (argc > 1 && n == 10)
    std::printf("nworkers %u\n", __cilkrts_get_nworkers());
  delete[] a;
}
