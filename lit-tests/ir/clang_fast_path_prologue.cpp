// Verify that a C++ fast clone keeps its prologue off the path of a call
// that returns before its first spawn. Its landing pads and its stolen
// path end in the runtime's rethrow; each such end branches to the
// function's return instead of ending in `unreachable`
// (plugin/finish/RethrowExits.cpp), so that shrink-wrapping finds a restore point
// and a leaf of fib saves no register and allocates no stack frame.
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

// IR-LABEL: define {{.*}} @_Z3fibl(
// IR-NOT: unreachable
// IR: invoke void @__weft_rethrow(
// IR-NOT: unreachable
// IR: call void @__weft_rethrow(
// IR-NEXT: br label
// IR-NOT: unreachable
// IR: ret i64
// IR-LABEL: define internal {{.*}} @_Z3fibl.resume(

// ASM-LABEL: _Z3fibl:
// ASM-NOT: pushq
// ASM-NOT: subq
// ASM: cmpq $2, %rdi
// ASM-NEXT: j{{l|ge}} 
// ASM: pushq
