// Verify that race mode (-fplugin-arg-weft-race, what `weft-clang++
// --weft-race` passes) emits the work/span hooks' five calls at the same
// places under the race detector's names: the record opened after the
// prologue, a spawn reported after its push, before the child, the
// continuation where the parent goes on after a successful pop, an explicit sync before its
// stolen check, and the function's end before each return's implicit
// sync, every call naming the record; that parallel loops call the race
// copy of the splitter; that the module refers to __weft_race_anchor (so
// that the detector is linked) and defines __weft_race__; and that normal
// and workspan mode, and a function that does not spawn, get none of it.
//
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-race -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes='weft-lower-spawns<race>' -S %t.ll | FileCheck %s
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=NORMAL-PASS %s
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-race -fsanitize=thread -fno-sanitize-link-runtime -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=PIPELINE %s
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-race -fsanitize=thread -fno-sanitize-link-runtime -O0 -S -emit-llvm %s -o - | FileCheck --check-prefix=PIPELINE %s
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=NORMAL %s
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-workspan -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=NORMAL %s
#include <cilk/cilk.h>

#ifdef __weft_race__
int race_macro;
#endif

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

// CHECK: @race_macro =
// CHECK: @__weft_race_anchor_ref = linkonce_odr hidden constant ptr @__weft_race_anchor, comdat
// CHECK: @llvm.compiler.used = {{.*}}@__weft_race_anchor_ref

// CHECK-LABEL: define {{.*}} @_Z3fibl(
// CHECK: call ptr @llvm.coro.begin(
// CHECK: %[[REC:.*]] = call i32 @__weft_race_enter()
// CHECK: call token @llvm.coro.save(
// CHECK-NEXT: call i64 @__weft_push(
// CHECK-NEXT: call void @__weft_race_spawn(i32 %[[REC]])
// CHECK: %[[OWNED:.*]] = call i1 @__weft_pop(i64 %
// CHECK-NEXT: br i1 %[[OWNED]], label %[[CONT:.*]], label %
// CHECK: [[CONT]]:
// CHECK-NEXT: call void @__weft_race_continue(i32 %[[REC]])
// CHECK: call void @__weft_race_sync(i32 %[[REC]])
// CHECK-NEXT: call i1 @__weft_is_stolen(
// CHECK: call void @__weft_race_exit(i32 %[[REC]])
// CHECK-NEXT: call i1 @__weft_is_stolen(

// CHECK-LABEL: define {{.*}} @_Z4fillPli(
// CHECK-NOT: __weft_race_enter
// CHECK: call void @__weft_parallel_for_race(
// CHECK-NOT: @__weft_parallel_for(

// CHECK-LABEL: define {{.*}} @_Z5plainl(
// CHECK-NOT: __weft_race
// CHECK: ret i64

// CHECK: declare void @__weft_race_anchor() [[NOUNWIND:#[0-9]+]]
// CHECK: declare i32 @__weft_race_enter() [[NOUNWIND]]
// CHECK: declare void @__weft_race_spawn(i32) [[NOUNWIND]]

// PIPELINE: @race_macro =
// PIPELINE: @__weft_race_anchor_ref = linkonce_odr hidden constant ptr @__weft_race_anchor, comdat
// PIPELINE-LABEL: define {{.*}} @_Z3fibl(
// PIPELINE: call i32 @__weft_race_enter()
// PIPELINE: call void @__weft_race_spawn(
// PIPELINE: call void @__weft_race_continue(
// PIPELINE: call void @__weft_race_sync(
// PIPELINE: call void @__weft_race_exit(
// PIPELINE-LABEL: define {{.*}} @_Z4fillPli(
// PIPELINE: call void @__weft_parallel_for_race(

// NORMAL-PASS-NOT: __weft_race
// NORMAL-PASS-NOT: __weft_parallel_for_race

// NORMAL-NOT: race_macro
// NORMAL-NOT: __weft_race
// NORMAL-NOT: nosanitize
