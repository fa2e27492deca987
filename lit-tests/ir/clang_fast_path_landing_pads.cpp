// Verify that the pop in the landing pad of a spawned call that threw stays
// a call into libweft (plugin/finish/FastPath.cpp): it runs once per
// exception, and inlined it would add the pop's whole body to every fast
// clone. The pop after the call that returned is inlined as before (no
// call of __weft_pop on that path). Children that throw, with their parent
// stolen or not, still hand their exception to the parent's caller, as in
// the serial elision.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// Every pop call of the fast clone comes right after a __weft_catch.
// RUN: sed -n '/^define.*@_Z3sumll(/,/^}/p' %t.ll > %t.sum.ll
// RUN: grep -B1 '@__weft_pop(' %t.sum.ll | not grep -v -e '@__weft_catch(' -e '@__weft_pop(' -e '^--$'
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.weft
// RUN: %run-check %t.weft %t.serial
#include <cilk/cilk.h>
#include <cstdio>

struct Odd {
  long n;
};

__attribute__((noinline)) long leaf(long n) {
  if (n % 2053 == 13)
    throw Odd{n};
  return n & 7;
}

long sum(long lo, long hi) {
  if (hi - lo < 4) {
    long s = 0;
    for (long i = lo; i < hi; ++i)
      s += leaf(i);
    return s;
  }
  long mid = lo + (hi - lo) / 2;
  long x = cilk_spawn sum(lo, mid);
  long y = sum(mid, hi);
  cilk_sync;
  return x + y;
}

// A pop call in a landing pad, after the exception is recorded, and none
// before the first landing pad.
// CHECK-LABEL: define {{.*}} @_Z3sumll(
// CHECK-NOT:   @__weft_pop(
// CHECK:       landingpad
// CHECK-NEXT:  catch ptr null
// CHECK:       call void @__weft_catch(
// CHECK-NEXT:  call {{.*}}i1 @__weft_pop(
// CHECK-LABEL: define internal {{.*}} @_Z3sumll.resume(

int main() {
  long total = 0, caught = 0;
  for (long round = 0; round < 200; ++round) {
    long lo = round * 7, hi = lo + 1000 + round;
    try {
      total += sum(lo, hi);
    } catch (Odd &e) {
      // Which of the throwing children's exceptions arrives may differ;
      // that one did is what matters.
      caught += e.n % 2053 == 13;
    }
  }
  std::printf("%ld %ld\n", total, caught);
  return 0;
}
