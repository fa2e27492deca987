// Verify that the identical clones of a template's two instances are kept
// once (finish/MergeClones.cpp): a parallel_for in parlaylib's style,
// called with an rvalue lambda (F = L) and recursing on the lvalue (F = L&),
// and a grain only known at run time, so that both instances keep their
// cilk_for, their serial loop and their spawning split. Their loop bodies
// run the same f(i), and both slow clones run the same continuation,
// pfor<L&>(mid, end, f, grain): one body and one .resume serve both, and
// the cilk_for's exception slot stays out of both frames (it dies at the
// rethrow), which makes the frames, and so the slow clones, alike. Each
// lambda of its own keeps a body and a .resume of its own. Without
// exceptions there is no catch-all, and the same holds; there the F = L
// instance, whose cilk_for then has no exception slot to keep, is the
// other's twin in all but its calls of it, and becomes a call of it. The
// results are checked against the serial elision, with forced steals.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: grep -c '^define .*\.weft\.pfor"(' %t.ll | FileCheck --check-prefix=TWO %s
// RUN: grep -c '^define .*\.resume"(' %t.ll | FileCheck --check-prefix=TWO %s
// RUN: %weftcxx -O2 -fno-exceptions -S -emit-llvm %s -o %t.noexc.ll
// RUN: FileCheck %s < %t.noexc.ll
// RUN: FileCheck --check-prefix=NOEXC %s < %t.noexc.ll
// RUN: grep -c '^define .*\.weft\.pfor"(' %t.noexc.ll | FileCheck --check-prefix=TWO %s
// RUN: grep -c '^define .*\.resume"(' %t.noexc.ll | FileCheck --check-prefix=TWO %s
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 3
// RUN: %clangxx -O2 -fno-exceptions %s -o %t.noexc.serial
// RUN: %weftcxx -O2 -fno-exceptions %s -o %t.noexc
// RUN: %run-check %t.noexc %t.noexc.serial 3
#include <cilk/cilk.h>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

template <typename F>
void pfor(size_t start, size_t end, F &&f, long granularity) {
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

__attribute__((noinline)) void scale(double *a, size_t n, long g) {
  pfor(0, n, [&](size_t i) { a[i] *= 2; }, g);
}

__attribute__((noinline)) void shift(double *a, size_t n, long g) {
  pfor(0, n, [&](size_t i) { a[i] += 1; }, g);
}

// The two instances of each lambda: one loop body, one slow clone, named
// after the instance that recurses (F = L&), whose copies come first.
// CHECK-DAG: define internal void @"_Z4pforIRZ5scalePdmlE3$_0EvmmOT_l.weft.pfor"(
// CHECK-DAG: define internal {{.*}}void @"_Z4pforIRZ5scalePdmlE3$_0EvmmOT_l.resume"(
// CHECK-DAG: define internal void @"_Z4pforIRZ5shiftPdmlE3$_0EvmmOT_l.weft.pfor"(
// CHECK-DAG: define internal {{.*}}void @"_Z4pforIRZ5shiftPdmlE3$_0EvmmOT_l.resume"(
// TWO: {{^}}2{{$}}

// NOEXC-LABEL: define internal {{.*}}void @"_Z4pforIZ5scalePdmlE3$_0EvmmOT_l"(
// NOEXC-NEXT:    tail call {{.*}}void @"_Z4pforIRZ5scalePdmlE3$_0EvmmOT_l"(
// NOEXC-NEXT:    ret void
// NOEXC-LABEL: define internal {{.*}}void @"_Z4pforIZ5shiftPdmlE3$_0EvmmOT_l"(
// NOEXC-NEXT:    tail call {{.*}}void @"_Z4pforIRZ5shiftPdmlE3$_0EvmmOT_l"(
// NOEXC-NEXT:    ret void

int main(int argc, char **argv) {
  long g = argc > 1 ? std::atol(argv[1]) : 0;
  static double a[100000];
  for (size_t i = 0; i < 100000; ++i)
    a[i] = double(i % 97);
  for (int round = 0; round < 20; ++round) {
    scale(a, 100000, round % 2 ? g * 100 : 0);
    shift(a, 100000, round % 3 ? g : 0);
  }
  double sum = 0;
  for (size_t i = 0; i < 100000; ++i)
    sum += a[i] * double(i % 13);
  std::printf("%.17g\n", sum);
  return 0;
}
