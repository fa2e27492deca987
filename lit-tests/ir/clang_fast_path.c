// Verify that the runtime's push and pop are inlined into the fast clone
// (runtime/fast_path.cpp, embedded in the plugin; plugin/finish/FastPath.cpp):
// no call to __weft_push or __weft_pop is left on the common path, the push
// publishes the frame with a release store of the deque's bottom before the
// spawned call (computing its argument from the function's own argument,
// not from the frame slot it was just spilled to: the empty asm that made
// the result's variable escape before coro-split is gone, the variable
// being a frame slot now), and the pop reads the thread's worker again, in a new block
// after the call (the child may have returned on another thread). The fast
// clone's syncs cost nothing (its stolen checks fold to false, so no call
// to __weft_sync_slow is left), and a call that returns before its first
// spawn does not initialise the frame (the stores of the resume pointer
// and the header come after the leaf test, and the destroy function's
// address, which nothing reads, is not stored at all). In an executable (PIE here, or
// position-dependent code) the runtime variables the fast path reads are
// addressed directly and the thread's worker is a local-exec thread-local;
// code built for a shared object (-fPIC) keeps the GOT. The out-of-line
// calls stay for ThreadSanitizer, for other targets and at -O0.
//
// The inlined push and pop make only the tests they must (runtime/
// fast_path.cpp): the push loads its worker and goes straight to the
// deque's bottom and limit, with no null test (a thread not yet registered
// reads a worker whose deque refuses the push), and after publishing it
// tests the hook word, with no spawn counter on the way (spawns are
// counted under that test, while something reads them); the pop compares
// top with the new bottom as it loaded it, with no fence-mode bias added.
//
// RUN: %weftcc -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=FAST %s
// RUN: %weftcc -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=LEAF %s
// RUN: %weftcc -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=TESTS %s
// RUN: %weftcc -O2 -g -c %s -o %t.o
// RUN: %weftcc -O2 -fPIE -S -emit-llvm %s -o - | FileCheck --check-prefix=EXE %s
// RUN: %weftcc -O2 -fno-pic -S -emit-llvm %s -o - | FileCheck --check-prefix=EXE %s
// RUN: %weftcc -O2 -fPIC -S -emit-llvm %s -o - | FileCheck --check-prefix=DSO %s
// RUN: %weftcc -O2 -fsanitize=thread -S -emit-llvm %s -o - | FileCheck --check-prefix=CALLS %s
// RUN: %weftcc --target=i686-linux-gnu -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=CALLS %s
// RUN: %weftcc -O0 -S -emit-llvm %s -o - | FileCheck --check-prefix=CALLS %s
#include <cilk/cilk.h>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

// FAST-LABEL: define {{.*}} @fib(
// FAST-NOT: asm sideeffect
// FAST-NOT: load
// FAST: store i64 %0,
// FAST-NOT: load
// FAST: add nsw i64 %0, -1
// FAST-NOT: load
// FAST: call ptr @llvm.threadlocal.address.p0(ptr @_ZN4weft6detail12ThreadWorkerE)
// FAST: store atomic i64 {{.*}} release
// FAST: call {{.*}}i64 @fib(
// FAST: {{^[0-9a-z._]+:}}
// FAST-NEXT: call ptr @llvm.threadlocal.address.p0(ptr @_ZN4weft6detail12ThreadWorkerE)
// FAST-NOT: call {{.*}} @__weft_pop(
// FAST-LABEL: define internal {{.*}} @fib.resume(
// FAST-NOT: call {{.*}} @__weft_pop_inline(
// FAST-NOT: define {{.*}} @__weft_push_inline(

// TESTS-LABEL: define {{.*}} @fib(
// TESTS: call ptr @llvm.threadlocal.address.p0(ptr @_ZN4weft6detail12ThreadWorkerE)
// TESTS-NEXT: %[[W:[0-9]+]] = load ptr, ptr
// TESTS-NEXT: getelementptr inbounds{{( nuw)?}} i8, ptr %[[W]]
// TESTS-NEXT: load atomic i64
// TESTS-NEXT: getelementptr inbounds{{( nuw)?}} i8, ptr %[[W]]
// TESTS-NEXT: load i64
// TESTS-NEXT: icmp slt i64
// TESTS-NEXT: br i1
// TESTS: store atomic i64 {{.*}} release
// TESTS-NEXT: load atomic i32, ptr @_ZN4weft6detail9PushHooksE monotonic
// TESTS: fence syncscope("singlethread") seq_cst
// TESTS-NEXT: %[[TOP:[0-9]+]] = load atomic i64, ptr
// TESTS-NEXT: icmp slt i64 %[[TOP]],

// EXE-DAG: @_ZN4weft6detail12ThreadWorkerE = external dso_local thread_local(localexec)
// EXE-DAG: @_ZN4weft6detail9PushHooksE = external dso_local
// DSO-NOT: dso_local thread_local
// DSO: @_ZN4weft6detail12ThreadWorkerE = external thread_local{{ }}
// DSO-NOT: @_ZN4weft6detail9PushHooksE = external dso_local

// CALLS-LABEL: define {{.*}} @fib(
// CALLS: call i64 @__weft_push(
// CALLS: call {{.*}}i1 @__weft_pop(i64 %

// LEAF-LABEL: define {{.*}} @fib(
// LEAF-NOT: store
// LEAF: icmp slt i64 %0, 2
// LEAF-NEXT: br i1
// LEAF: store ptr @fib.resume
// LEAF-NOT: @fib.destroy
// LEAF-NOT: call {{.*}}@__weft_sync_slow
// LEAF-NOT: call {{.*}}@__weft_is_stolen
// LEAF-LABEL: define internal {{.*}} @fib.resume(
