// Verify that a pedigree build (-fplugin-arg-weft-pedigrees) keeps each
// strand's pedigree: the function's frame taken where its first use needs
// it, off the paths that spawn nothing; at a
// spawn, the child's frame made (a lifetime-bounded alloca) before the
// push and the parent's made the thread's again right after the call, the
// child's lifetime ending there; the parent's frame again after every
// suspend (the stolen continuation, the sync that waited) and where a
// parked fast clone returns; a sync counted after it completes, but not
// the front end's sync before a return that follows it; parallel loops
// called through __weft_pedigree_parallel_for_chunks with the splitter as
// an argument (renamed in workspan mode), each iteration of the chunk
// marked; and nothing of it in a normal build
// or a function that does not spawn.
//
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-pedigrees -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes='weft-lower-spawns<pedigrees>' -S %t.ll > %t.lowered.ll
// RUN: FileCheck %s < %t.lowered.ll
// RUN: FileCheck --check-prefix=CHUNK %s < %t.lowered.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=NORMAL %s
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-pedigrees -fplugin-arg-weft-workspan -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=WORKSPAN %s
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=NORMAL %s
#include <cilk/cilk.h>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

void fill(long *a, int n) {
  cilk_for (int i = 0; i < n; ++i)
    a[i] = i;
}

long plain(long n) { return n + 1; }

// CHECK-LABEL: define {{.*}} @_Z3fibl(
// Not on the path of `return n`, which spawns nothing: the frame is taken
// where the first spawn needs it.
// CHECK: br i1 %{{.*}}, label %{{.*}}, label %[[REC:.*]]
// CHECK-NOT: @__weft_pedigree_enter()
// CHECK: [[REC]]:
// The child's frame: a statement temporary, each clone's own after the
// split (DynamicAllocas.cpp).
// CHECK: %[[START:.*]] = call ptr @__weft_statement_alloca(i64 40, i64 8, i64 [[ID:[0-9]+]])
// CHECK-NEXT: call void @__weft_statement_lifetime_start(ptr %[[START]])
// CHECK-NEXT: %[[PED:.*]] = call ptr @__weft_pedigree_enter()
// CHECK-NEXT: %[[CHILD:.*]] = call ptr @__weft_statement_alloca(i64 40, i64 8, i64 [[ID]])
// CHECK-NEXT: call void @__weft_pedigree_spawn(ptr %[[PED]], ptr %[[CHILD]])
// CHECK-NEXT: call token @llvm.coro.save(
// CHECK-NEXT: call i64 @__weft_push(
// CHECK-NEXT: invoke {{.*}} @_Z3fibl(
// CHECK: call void @__weft_pedigree_resume(ptr %[[PED]])
// CHECK-NEXT: %[[END:.*]] = call ptr @__weft_statement_alloca(i64 40, i64 8, i64 [[ID]])
// CHECK-NEXT: call void @__weft_statement_lifetime_end(ptr %[[END]])
// CHECK: call i1 @__weft_pop(
// CHECK: weft.resumed:
// CHECK-NEXT: call void @__weft_pedigree_resume(ptr %[[PED]])
// The explicit sync: resumed if it waited, then counted.
// CHECK: weft.resumed{{[0-9]+}}:
// CHECK-NEXT: call void @__weft_pedigree_resume(ptr %[[PED]])
// CHECK: call void @__weft_pedigree_sync(ptr %[[PED]])
// The front end's sync before `return x + y` follows the cilk_sync: it
// waits for nothing and counts nothing.
// CHECK-NOT: call void @__weft_pedigree_sync(
// CHECK: landingpad
// CHECK-NEXT: catch ptr null
// CHECK-NEXT: call void @__weft_pedigree_resume(ptr %[[PED]])
// The frame from the suspended paths; poison from the direct returns,
// which may not have taken it.
// CHECK: weft.exit:
// CHECK: %[[EXITPED:.*]] = phi ptr
// CHECK-SAME: [ %[[PED]], %weft.suspended ]
// CHECK-SAME: [ poison, %weft.finish.fast ]
// CHECK: weft.exit.result:
// CHECK-NEXT: call void @__weft_pedigree_resume(ptr %[[EXITPED]])

// CHECK-LABEL: define {{.*}} @_Z4fillPli(
// CHECK-NOT: __weft_pedigree_enter
// CHECK: call void @__weft_pedigree_parallel_for_chunks(i64 %{{.*}}, i64 0, ptr @_Z4fillPli.weft.pfor, ptr %{{.*}}, ptr @__weft_parallel_for)

// Each iteration of the chunk starts a pedigree of its own.
// CHUNK-LABEL: define internal void @_Z4fillPli.weft.pfor(ptr %ctx, i64 %lo, i64 %hi)
// CHUNK: %[[K:.*]] = load i64, ptr
// CHUNK-NEXT: %[[IN:.*]] = icmp ult i64 %[[K]], %hi
// CHUNK-NEXT: br i1 %[[IN]], label %[[BODY:.*]], label %
// CHUNK: [[BODY]]:
// CHUNK-NEXT: call void @__weft_pedigree_iteration(i64 %[[K]])

// CHECK-LABEL: define {{.*}} @_Z5plainl(
// CHECK-NOT: __weft_pedigree
// CHECK: ret i64

// CHECK: declare ptr @__weft_pedigree_enter() [[NOUNWIND:#[0-9]+]]
// CHECK: declare void @__weft_pedigree_spawn(ptr, ptr) [[NOUNWIND]]

// WORKSPAN-LABEL: define {{.*}} @_Z3fibl(
// WORKSPAN-DAG: ptr @__weft_pedigree_enter{{(_preserving)?}}()
// WORKSPAN-DAG: call i32 @__weft_workspan_enter()
// WORKSPAN-LABEL: define {{.*}} @_Z4fillPli(
// WORKSPAN: call void @__weft_pedigree_parallel_for_chunks({{.*}}, ptr nonnull @__weft_parallel_for_workspan)

// NORMAL-NOT: __weft_pedigree
