// Verify that a parallel loop whose iterations cost little gets a minimum
// grain (finish/ChunkGrain.cpp), so that a short loop of cheap iterations
// is not cut into 8P pieces that cost more to spawn than to run:
// - fill's iteration is an add and a store, about 4 size units: the call
//   gets max(__weft_pfor_grain(n), 512) in place of the default 0;
// - one whose iteration runs an inner loop of 1,000 trips, and one whose
//   iteration calls a function it cannot see, keep the default;
// - a loop with `#pragma cilk grainsize` keeps the grain it was given.
// The results are checked against the serial elision, with forced steals,
// at lengths below, at and above the minimum grain.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %clangxx -O2 -Wno-unknown-pragmas %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 72
// RUN: %run-check %t %t.serial 1024
// RUN: %run-check %t %t.serial 100003
//
// CHECK-LABEL: define {{.*}}@_Z4fillPlll(
// CHECK: [[DEFAULT:%[^ ]+]] = {{.*}}call i64 @__weft_pfor_grain(i64 [[N:%[^ )]+]])
// CHECK: [[GRAIN:%[^ ]+]] = {{.*}}call i64 @llvm.umax.i64(i64 [[DEFAULT]], i64 512)
// CHECK: call void @__weft_parallel_for(i64 [[N]], i64 [[GRAIN]], ptr {{.*}}@_Z4fillPlll.weft.pfor,
// CHECK-LABEL: define {{.*}}@_Z5heavyPdl(
// CHECK-NOT: __weft_pfor_grain
// CHECK: call void @__weft_parallel_for(i64 %{{[^ ]+}}, i64 0,
// CHECK-LABEL: define {{.*}}@_Z6opaquePll(
// CHECK-NOT: __weft_pfor_grain
// CHECK: call void @__weft_parallel_for(i64 %{{[^ ]+}}, i64 0,
// CHECK-LABEL: define {{.*}}@_Z5givenPll(
// CHECK-NOT: __weft_pfor_grain
// CHECK: call void @__weft_parallel_for(i64 %{{[^ ]+}}, i64 3,
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>

void fill(long *a, long n, long v) {
  cilk_for (long i = 0; i < n; i++)
    a[i] = v + i;
}

void heavy(double *a, long n) {
  cilk_for (long i = 0; i < n; i++) {
    double x = a[i];
    for (int k = 0; k < 1000; k++)
      x = x * 1.0000001 + 1e-9;
    a[i] = x;
  }
}

__attribute__((noinline)) long mix(long x) { return x * 2654435761 % 1000003; }

void opaque(long *a, long n) {
  cilk_for (long i = 0; i < n; i++)
    a[i] += mix(i);
}

void given(long *a, long n) {
#pragma cilk grainsize 3
  cilk_for (long i = 0; i < n; i++)
    a[i] -= i;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 72;
  long *a = new long[n];
  double *d = new double[n];
  long sum = 0;
  // Many short loops, as a container's constructor runs them.
  for (int round = 0; round < 2000; round++) {
    fill(a, n, round);
    sum += a[round % n];
  }
  for (long i = 0; i < n; i++)
    d[i] = double(i);
  heavy(d, n);
  opaque(a, n);
  given(a, n);
  for (long i = 0; i < n; i++)
    sum += a[i] % 7919;
  printf("%ld %.6f %.6f\n", sum, d[0], d[n - 1]);
  delete[] a;
  delete[] d;
}
