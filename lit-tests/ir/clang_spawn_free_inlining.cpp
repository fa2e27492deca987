// Verify that a spawning template whose spawning path the caller's constant
// argument folds away is inlined as its serial elision would be, and that
// its clones then go: a parallel_for in parlaylib's style (a cilk_for at
// grain 0, a serial loop below the grain, a spawning split above it) behind
// a wrapper with the default grain 0. The fast clone's stolen checks are
// folded as soon as coro-split makes it (StolenChecks.cpp), so the inliner
// weighs it without its syncs' and landing pads' slow paths; inlined, the
// caller keeps no push, so the frame's resume and destroy pointers are not
// stored (SinkFrameInit.cpp), and nothing names the fast clone and its
// .resume any more. Only the cilk_for's outlined body is left. A caller
// passing a grain keeps the spawning template, whose resume pointer is
// stored on the spawning path only, after the grain test. The results are
// checked against the serial elision, with forced steals.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
#include <cilk/cilk.h>
#include <cstddef>
#include <cstdio>

template <typename F>
inline void pfor(size_t start, size_t end, F &&f, long granularity) {
  if (granularity == 0) {
    cilk_for (size_t i = start; i < end; i++)
      f(i);
  } else if (end - start <= static_cast<size_t>(granularity)) {
    for (size_t i = start; i < end; i++)
      f(i);
  } else {
    size_t mid = start + (end - start) / 2;
    cilk_spawn pfor(start, mid, f, granularity);
    pfor(mid, end, f, granularity);
    cilk_sync;
  }
}

template <typename F>
inline void parallel_for(size_t start, size_t end, F &&f, long g = 0) {
  pfor(start, end, f, g);
}

__attribute__((noinline)) void scale(double *a, size_t n) {
  parallel_for(0, n, [&](size_t i) { a[i] *= 2; });
}

__attribute__((noinline)) void shift(double *a, size_t n) {
  parallel_for(0, n, [&](size_t i) { a[i] += 1; }, 64);
}

// CHECK-LABEL: define {{.*}} @_Z5scalePdm(
// CHECK-NOT: @__weft_push
// CHECK-NOT: .resume
// CHECK: call void @__weft_parallel_for(
// CHECK-NOT: .resume
// CHECK: ret void

// The grain-64 template is a spawning function of its own; its resume
// pointer is stored after the grain tests, on the spawning path.
// CHECK-LABEL: define internal {{.*}} @"_Z4pforIRZ5shiftPdmE3$_0EvmmOT_l"(
// CHECK: icmp eq i64 %{{.*}}, 0
// CHECK: icmp ugt i64
// CHECK-NEXT: br i1
// CHECK: store ptr @"_Z4pforIRZ5shiftPdmE3$_0EvmmOT_l.resume",

// No clone of scale's template is left, only its loop body.
// CHECK-NOT: define {{.*}} @"_Z4pforIRZ5scalePdmE3$_0EvmmOT_l"(
// CHECK-NOT: define {{.*}} @"_Z4pforIRZ5scalePdmE3$_0EvmmOT_l.resume"(

int main() {
  static double a[100000];
  for (size_t i = 0; i < 100000; ++i)
    a[i] = double(i % 97);
  for (int round = 0; round < 20; ++round) {
    scale(a, 100000);
    shift(a, 100000);
  }
  double sum = 0;
  for (size_t i = 0; i < 100000; ++i)
    sum += a[i] * double(i % 13);
  std::printf("%.17g\n", sum);
  return 0;
}
