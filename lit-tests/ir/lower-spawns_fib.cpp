// Verify that the front end marks exactly the spawned call (with the
// spawn's source location), the end of its statement and the sync, that
// weft-lower-spawns brackets the spawned call with a push and a pop and turns
// the function into a pre-split coroutine (the result store volatile, so the
// result stays in memory until the sync), that a spawned call that may throw
// becomes an invoke whose landing pad records the exception and pops, that
// code built with -fno-exceptions gets no landing pad at all, and that after
// coro-split the fast clone keeps the push/pop while a slow clone (.resume)
// with a resume dispatch exists. The result's variable escapes through an
// empty asm until coro-split has made it a slot of the frame, which the
// push captures anyway; then the asm goes, and the slow clone never had it. Functions without spawns are untouched and
// no marker survives.
//
// RUN: %clangxx -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: FileCheck --check-prefix=MARKS %s < %t.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=LOWER %s
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=NOLOC %s
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup' -S %t.ll | FileCheck --check-prefix=ESCAPE %s
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup,weft-finish' -S %t.ll | FileCheck --check-prefix=SPLIT %s
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup,weft-finish' -S %t.ll | FileCheck --check-prefix=NOESCAPE %s
// RUN: %clangxx -fplugin=%plugin -fno-exceptions -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.noeh.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.noeh.ll | FileCheck --check-prefix=NOEH %s
#include <cilk/cilk.h>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

long plain(long n) { return n + 1; }

// MARKS-LABEL: define {{.*}} @_Z3fibl(
// MARKS: %[[CALLEE:.*]] = call {{.*}}ptr (ptr, i32, ...) @__weft_spawn_marker(ptr {{.*}}@_Z3fibl, i32 {{.*}}{{[0-9]+}})
// MARKS-NEXT: load
// MARKS-NEXT: sub
// MARKS-NEXT: call {{.*}}i64 %[[CALLEE]](
// MARKS-NEXT: store i64
// MARKS-NEXT: call void @__weft_spawn_end()
// MARKS: call {{.*}}i64 @_Z3fibl(
// MARKS: call void @__weft_sync_marker()
// MARKS-LABEL: define {{.*}} @_Z5plainl(
// MARKS-NOT: __weft

// LOWER-LABEL: define {{.*}} @_Z3fibl(
// LOWER-SAME: #[[ATTRS:[0-9]+]]
// LOWER: call token @llvm.coro.id(
// LOWER: call ptr @__weft_frame_alloc(
// LOWER: call ptr @llvm.coro.begin(
// LOWER: %[[SAVE:.*]] = call token @llvm.coro.save(
// LOWER-NEXT: %[[MARK:.*]] = call i64 @__weft_push(
// LOWER-NEXT: %[[X:.*]] = invoke {{.*}}i64 @_Z3fibl(
// LOWER-NEXT: to label %[[OK:.*]] unwind label %[[UNWIND:.*]]
// LOWER: [[OK]]:
// LOWER-NEXT: store volatile i64 %[[X]]
// LOWER-NEXT: %[[OWNED:.*]] = call i1 @__weft_pop(i64 %[[MARK]])
// LOWER-NEXT: br i1 %[[OWNED]], label %[[CONT:.*]], label %[[STOLEN:.*]]
// LOWER: [[UNWIND]]:
// LOWER-NEXT: landingpad
// LOWER-NEXT: catch ptr null
// LOWER: call void @__weft_catch(
// LOWER-NEXT: call i1 @__weft_pop(i64 %[[MARK]])
// LOWER: [[STOLEN]]:
// LOWER-NEXT: call void @__weft_spawn_stolen(
// LOWER-NEXT: call i8 @llvm.coro.suspend(token %[[SAVE]], i1 false)
// LOWER: call {{.*}}i1 @__weft_sync_slow(
// LOWER: call void @__weft_frame_complete(
// LOWER-LABEL: define {{.*}} @_Z5plainl(
// LOWER-NOT: coro
// LOWER: ret i64
// LOWER: attributes #[[ATTRS]] = {{.*}}presplitcoroutine

// The spawn's location, moved onto the spawned call, is gone too.
// NOLOC-LABEL: define {{.*}} @_Z3fibl(
// NOLOC-NOT: weft-spawn-loc

// NOEH-LABEL: define {{.*}} @_Z3fibl(
// NOEH: call i64 @__weft_push(
// NOEH-NEXT: call {{.*}}i64 @_Z3fibl(
// NOEH-NOT: landingpad
// NOEH-NOT: invoke
// NOEH-LABEL: define {{.*}} @_Z5plainl(

// ESCAPE-LABEL: define {{.*}} @_Z3fibl(
// ESCAPE: call void asm sideeffect "", "r,~{memory}"(ptr {{.*}}), !weft.escape
// ESCAPE: call i64 @__weft_push(
// ESCAPE-LABEL: define internal fastcc void @_Z3fibl.resume(
// ESCAPE-NOT: asm sideeffect
// ESCAPE-LABEL: define internal fastcc void @_Z3fibl.destroy(

// NOESCAPE-LABEL: define {{.*}} @_Z3fibl(
// NOESCAPE-NOT: asm sideeffect
// NOESCAPE-LABEL: define internal fastcc void @_Z3fibl.resume(
// NOESCAPE-NOT: asm sideeffect
// NOESCAPE-LABEL: define internal fastcc void @_Z3fibl.destroy(

// SPLIT-LABEL: define {{.*}} @_Z3fibl(
// SPLIT: alloca [{{[0-9]+}} x i8], align 16
// SPLIT: store atomic i64 {{.*}} release
// SPLIT: {{call|invoke}} {{.*}}i64 @_Z3fibl(
// SPLIT-NOT: call ptr @__weft_frame_alloc
// SPLIT-LABEL: define internal fastcc void @_Z3fibl.resume(
// SPLIT: switch i{{[0-9]+}} %{{.*}}, label
// SPLIT-NOT: __weft_spawn_marker
// SPLIT-NOT: __weft_spawn_end
// SPLIT-NOT: __weft_sync_marker
