// Verify that a C++ fast clone keeps its prologue off the path of a call
// that returns before its first spawn. Its landing pads and its stolen
// path end in the runtime's rethrow; each such end branches to the
// function's return instead of ending in `unreachable`
// (plugin/finish/RethrowExits.cpp), so that shrink-wrapping finds a restore point
// and a leaf of fib saves no register and allocates no stack frame. So
// does the leaf of a function that spawns above a cutoff and calls both
// halves below it, which has two returns until the rethrows need one, and
// whose path below the cutoff stores nothing in the frame: it reads its
// arguments from registers after both calls, not from their spill slots
// (plugin/finish/SinkFrameInit.cpp).
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %weftcxx --target=x86_64-linux-gnu -O2 -S %s -o - | FileCheck --check-prefix=ASM %s
#include <cilk/cilk.h>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

void tree(const long *V, long *P, long s, long e) {
  if (e - s < 2)
    return;
  long mid = (s + e) / 2;
  if (e - s > 100) {
    cilk_spawn tree(V, P, mid, e);
    tree(V, P, s, mid);
    cilk_sync;
  } else {
    tree(V, P, s, mid);
    tree(V, P, mid, e);
  }
  P[mid] = V[mid - 1] > V[mid] ? mid - 1 : mid;
}

// IR-LABEL: define {{.*}} @_Z3fibl(
// IR-NOT: unreachable
// IR: invoke void @__weft_rethrow(
// IR-NOT: unreachable
// IR: call void @__weft_rethrow(
// IR-NEXT: br label
// IR-NOT: unreachable
// IR: ret i64
// IR-LABEL: define {{.*}} @_Z4treePKlPlll(ptr {{.*}}%0, ptr {{.*}}%1, i64 {{.*}}%2, i64 {{.*}}%3)
// IR: br i1 %{{[0-9]+}}, label %{{[0-9]+}}, label %{{[0-9]+}}
// IR: br i1 %{{[0-9]+}}, label %{{[0-9]+}}, label %[[BELOW:[0-9]+]]
// IR: {{^}}[[BELOW]]:
// IR-NOT: {{store|load|memset}}
// IR: call void @_Z4treePKlPlll(ptr noundef %0, ptr noundef %1, i64 noundef %2,
// IR-NOT: {{^[0-9]+:}}
// IR: br label
// IR-LABEL: define internal {{.*}} @_Z3fibl.resume(

// ASM-LABEL: _Z3fibl:
// ASM-NOT: pushq
// ASM-NOT: subq
// ASM: cmpq $2, %rdi
// ASM-NEXT: j{{l|ge}} 
// ASM: pushq

// ASM-LABEL: _Z4treePKlPlll:
// ASM-NOT: pushq
// ASM-NOT: {{subq .*%rsp}}
// ASM: cmpq $2,
// ASM-NEXT: j{{l|ge}}
// ASM: pushq
