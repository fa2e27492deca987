// Verify what becomes of a template's twin instances: a parallel_for in
// parlaylib's style, called with an rvalue lambda (F = L) and recursing on
// the lvalue (F = L&), with a grain only known at run time, so that both
// instances keep their cilk_for, their serial loop and their spawning split.
// The F = L instance does what the F = L& one does, calling it where it
// calls itself: the lowering makes it a call of its twin before anything
// else (lower/LowerSpawns.cpp, shared/TwinFunctions.h), even though Clang
// emitted its iterations' lambda call as an invoke (the lambda was not yet
// known not to throw) and the other's as a call; the caller then inlines
// it, as the serial elision inlines its instance, and calls the F = L&
// instance itself. What is left is one spawning function per lambda, with
// one loop body and one .resume. Without exceptions the same holds. The
// results are checked against the serial elision, with forced steals.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: grep -c '^define .*\.weft\.pfor"(' %t.ll | FileCheck --check-prefix=TWO %s
// RUN: grep -c '^define .*\.resume"(' %t.ll | FileCheck --check-prefix=TWO %s
// RUN: not grep '^define .*@"_Z4pforIZ' %t.ll
// RUN: %weftcxx -O2 -fno-exceptions -S -emit-llvm %s -o %t.noexc.ll
// RUN: FileCheck %s < %t.noexc.ll
// RUN: grep -c '^define .*\.weft\.pfor"(' %t.noexc.ll | FileCheck --check-prefix=TWO %s
// RUN: grep -c '^define .*\.resume"(' %t.noexc.ll | FileCheck --check-prefix=TWO %s
// RUN: not grep '^define .*@"_Z4pforIZ' %t.noexc.ll
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

// Each caller calls the F = L& instance; one loop body and one slow clone
// each, named after it.
// CHECK-LABEL: define {{.*}} @_Z5scalePdml(
// CHECK:       call {{.*}}void @"_Z4pforIRZ5scalePdmlE3$_0EvmmOT_l"(
// CHECK-LABEL: define {{.*}} @_Z5shiftPdml(
// CHECK:       call {{.*}}void @"_Z4pforIRZ5shiftPdmlE3$_0EvmmOT_l"(
// CHECK-DAG: define internal void @"_Z4pforIRZ5scalePdmlE3$_0EvmmOT_l.weft.pfor"(
// CHECK-DAG: define internal {{.*}}void @"_Z4pforIRZ5scalePdmlE3$_0EvmmOT_l.resume"(
// CHECK-DAG: define internal void @"_Z4pforIRZ5shiftPdmlE3$_0EvmmOT_l.weft.pfor"(
// CHECK-DAG: define internal {{.*}}void @"_Z4pforIRZ5shiftPdmlE3$_0EvmmOT_l.resume"(
// TWO: {{^}}2{{$}}

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
