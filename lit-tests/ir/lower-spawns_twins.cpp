// Verify that weft-lower-spawns<twins> makes a spawning function that is the
// twin of a spawning function it spawns a call of it, before it lowers
// anything (lower/LowerSpawns.cpp, shared/TwinFunctions.h), as the pipelines
// at -O1 and above do outside race mode. parlaylib's shape: split<L>, called
// with an rvalue lambda, recurses into split<L&>. Clang emits the first
// instance before it knows the lambda cannot throw, so the call in its
// cilk_for's try block is an invoke with a landing pad, a catch and the
// slots they use, and the second's a plain call; an invoke of a function
// that cannot unwind counts as the call it could be. The forwarding
// function keeps its symbol and is no spawning function: nothing of it is
// lowered, and its callers may inline it. A spawning function that differs
// (here, in a constant) keeps its body and is lowered; so is everything
// without <twins>.
//
// RUN: %clangxx -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes='weft-lower-spawns<twins>' -S %t.ll -o %t.twins.ll
// RUN: FileCheck %s < %t.twins.ll
// RUN: FileCheck --check-prefix=UNEVEN %s < %t.twins.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=PLAIN %s
#include <cilk/cilk.h>
#include <cstddef>

template <typename F> void split(size_t lo, size_t hi, F &&f, long grain) {
  if (grain == 0) {
    cilk_for (size_t i = lo; i < hi; i++)
      f(i);
  } else if (hi - lo <= static_cast<size_t>(grain)) {
    for (size_t i = lo; i < hi; i++)
      f(i);
  } else {
    size_t mid = lo + (hi - lo) / 2;
    cilk_spawn split(lo, mid, f, grain);
    split(mid, hi, f, grain);
    cilk_sync;
  }
}

// Like split, but its leaves take one element fewer: no twin.
template <typename F> void uneven(size_t lo, size_t hi, F &&f, long grain) {
  if (hi - lo <= static_cast<size_t>(grain)) {
    for (size_t i = lo; i + 1 < hi; i++)
      f(i);
  } else {
    size_t mid = lo + (hi - lo) / 2;
    cilk_spawn split(lo, mid, f, grain);
    split(mid, hi, f, grain);
    cilk_sync;
  }
}

void fill(int *a, size_t n, long g) {
  split(0, n, [&](size_t i) { a[i] = int(i); }, g);
}

void fill_uneven(int *a, size_t n, long g) {
  uneven(0, n, [&](size_t i) { a[i] = int(i); }, g);
}

// CHECK-LABEL: define internal void @"_Z5splitIZ4fillPimlE3$_0EvmmOT_l"(
// CHECK-NEXT:  entry:
// CHECK-NEXT:    tail call void @"_Z5splitIRZ4fillPimlE3$_0EvmmOT_l"(i64 noundef %0, i64 noundef %1, ptr noundef nonnull align 8 dereferenceable(8) %2, i64 noundef %3)
// CHECK-NEXT:    ret void
// CHECK-NEXT:  }

// CHECK-LABEL: define internal void @"_Z5splitIRZ4fillPimlE3$_0EvmmOT_l"(
// CHECK:         @llvm.coro.id(

// UNEVEN-LABEL: define internal void @"_Z6unevenIZ11fill_unevenPimlE3$_0EvmmOT_l"(
// UNEVEN:         @llvm.coro.id(

// PLAIN-LABEL: define internal void @"_Z5splitIZ4fillPimlE3$_0EvmmOT_l"(
// PLAIN:         @llvm.coro.id(
