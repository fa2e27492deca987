// Verify that weft-lower-spawns lowers only the syncs that a child may be
// outstanding at (plugin/lower/IdleSyncs.cpp): a sync or a return that
// every path from the entry reaches through a sync after its last spawn,
// or through no spawn at all, waits for nothing, and gets no slow path
// (no __weft_sync_slow call, no suspend point in the slow clone). Without
// exceptions, so that the only syncs are the program's and the returns'.
// The programs run against their serial elision, with forced steals.
//
// RUN: %clangxx -fplugin=%plugin -O1 -fno-exceptions -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck %s
// RUN: %clangxx -O2 -fno-exceptions %s -o %t.serial
// RUN: %weftcxx -O2 -fno-exceptions %s -o %t.weft
// RUN: %run-check %t.weft %t.serial
#include <cilk/cilk.h>
#include <cstdio>

__attribute__((noinline)) long f(long n) { return n * 3 + 1; }

// The explicit sync waits; the front end's implicit sync after it and the
// return's do not.
// CHECK-LABEL: define {{.*}} @_Z7sum_endl(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK-NOT:   call i1 @__weft_sync_slow(
// CHECK-LABEL: {{^}}}
long sum_end(long n) {
  long x = cilk_spawn f(n);
  long y = f(n + 1);
  cilk_sync;
  return x + y;
}

// The leaf's return comes before any spawn.
// CHECK-LABEL: define {{.*}} @_Z3fibl(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK-NOT:   call i1 @__weft_sync_slow(
// CHECK-LABEL: {{^}}}
long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

// No sync written: the implicit one waits, the return's does not.
// CHECK-LABEL: define {{.*}} @_Z10no_syncingPll(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK-NOT:   call i1 @__weft_sync_slow(
// CHECK-LABEL: {{^}}}
void no_syncing(long *out, long n) {
  out[0] = cilk_spawn f(n);
  out[1] = f(n + 2);
}

// A loop of spawns after the sync: the implicit sync waits again.
// CHECK-LABEL: define {{.*}} @_Z10two_phasesPll(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK-NOT:   call i1 @__weft_sync_slow(
// CHECK-LABEL: {{^}}}
void two_phases(long *out, long n) {
  for (long i = 0; i < n; ++i)
    out[i] = cilk_spawn f(i);
  cilk_sync;
  for (long i = 0; i < n; ++i)
    out[n + i] = cilk_spawn f(out[i]);
}

// A sync on one branch only: the return still waits on the other.
// CHECK-LABEL: define {{.*}} @_Z11branch_syncPll(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK-NOT:   call i1 @__weft_sync_slow(
// CHECK-LABEL: {{^}}}
void branch_sync(long *out, long n) {
  out[0] = cilk_spawn f(n);
  if (n & 1) {
    cilk_sync;
    out[1] = out[0] + 1;
  }
  out[2] = f(n + 3);
}

// Each round syncs its own spawn: the loop's back edge and its exit carry
// no outstanding child, and the return waits for nothing.
// CHECK-LABEL: define {{.*}} @_Z12sync_a_roundPll(
// CHECK:       call i1 @__weft_sync_slow(
// CHECK-NOT:   call i1 @__weft_sync_slow(
// CHECK-LABEL: {{^}}}
void sync_a_round(long *out, long n) {
  for (long i = 0; i < n; ++i) {
    out[i] = cilk_spawn f(i);
    out[n + i] = f(i + 1);
    cilk_sync;
    out[i] += out[n + i];
  }
}

int main() {
  long out[64] = {0};
  long total = sum_end(5) + fib(20);
  no_syncing(out, 7);
  total += out[0] + out[1];
  two_phases(out, 16);
  for (long i = 0; i < 32; ++i)
    total += out[i] * (i + 1);
  for (long n = 0; n < 6; ++n) {
    branch_sync(out, n);
    total += out[0] + out[2] + ((n & 1) ? out[1] : 0);
  }
  sync_a_round(out, 20);
  for (long i = 0; i < 20; ++i)
    total += out[i];
  std::printf("%ld\n", total);
  return 0;
}
