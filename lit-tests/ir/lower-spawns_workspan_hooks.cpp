// Verify that workspan mode (-fplugin-arg-weft-workspan, what
// `weft-clang++ --weft-workspan` passes) reports each spawning function to
// the work/span analysis: the record opened after the prologue, a spawn
// reported after its push, before the child, the continuation where the
// parent goes on after a successful pop, an explicit sync before its stolen check, and the
// function's end before each return's implicit sync, every call naming the
// record; that parallel loops call the workspan copy of the splitter and
// the module refers to the analysis (so that it is linked); and that normal
// mode, and a function that does not spawn, get none of it. An unknown
// plugin argument is an error.
//
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-workspan -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes='weft-lower-spawns<workspan>' -S %t.ll | FileCheck %s
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=NORMAL %s
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-workspan -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=PIPELINE %s
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=NORMAL %s
// RUN: not %clangxx -fplugin=%plugin -fplugin-arg-weft-sundial -fsyntax-only %s 2>&1 | FileCheck --check-prefix=BADARG %s
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

// CHECK: @__weft_workspan_anchor = linkonce_odr hidden constant ptr @__weft_workspan_enter, comdat
// CHECK: @llvm.compiler.used = {{.*}}@__weft_workspan_anchor

// CHECK-LABEL: define {{.*}} @_Z3fibl(
// CHECK: call ptr @llvm.coro.begin(
// CHECK: %[[REC:.*]] = call i32 @__weft_workspan_enter()
// CHECK: call token @llvm.coro.save(
// CHECK-NEXT: call i64 @__weft_push(
// CHECK-NEXT: call void @__weft_workspan_spawn(i32 %[[REC]])
// CHECK: %[[OWNED:.*]] = call i1 @__weft_pop(i64 %
// CHECK-NEXT: br i1 %[[OWNED]], label %[[CONT:.*]], label %
// CHECK: [[CONT]]:
// CHECK-NEXT: call void @__weft_workspan_continue(i32 %[[REC]])
// CHECK: call void @__weft_workspan_sync(i32 %[[REC]])
// CHECK-NEXT: call i1 @__weft_is_stolen(
// CHECK: call void @__weft_workspan_exit(i32 %[[REC]])
// CHECK-NEXT: call i1 @__weft_is_stolen(

// CHECK-LABEL: define {{.*}} @_Z4fillPli(
// CHECK-NOT: __weft_workspan_enter
// CHECK: call void @__weft_parallel_for_workspan(
// CHECK-NOT: @__weft_parallel_for(

// CHECK-LABEL: define {{.*}} @_Z5plainl(
// CHECK-NOT: __weft_workspan
// CHECK: ret i64

// CHECK: declare i32 @__weft_workspan_enter() [[NOUNWIND:#[0-9]+]]
// CHECK: declare void @__weft_workspan_spawn(i32) [[NOUNWIND]]

// PIPELINE-LABEL: define {{.*}} @_Z3fibl(
// PIPELINE: call i32 @__weft_workspan_enter()
// PIPELINE: call void @__weft_workspan_spawn(
// PIPELINE: call void @__weft_workspan_continue(
// PIPELINE: call void @__weft_workspan_exit(
// PIPELINE-LABEL: define {{.*}} @_Z4fillPli(
// PIPELINE: call void @__weft_parallel_for_workspan(

// NORMAL-NOT: __weft_workspan
// NORMAL-NOT: __weft_parallel_for_workspan

// BADARG: error: unknown argument 'sundial' for the weft plugin (expected 'workspan', 'race', 'pedigrees' or 'cilkscale-benchmark')
