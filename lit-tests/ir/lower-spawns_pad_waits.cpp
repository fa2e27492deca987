// Verify where weft-lower-spawns puts a landing pad's wait for outstanding
// children (plugin/lower/LandingPadSyncs.cpp): after the pad has destroyed the
// temporaries of the statement that threw (the std::string and its
// allocator here), before a local's destructor or the catch dispatch. The
// rethrow after the wait enters a landing pad of its own, with the same
// clauses, that stores the exception and selector slots again. Every use
// of a statement temporary gets its address from a marker call of its own
// (plugin/lower/DynamicAllocas.cpp), the cleanups on a stolen child's unwind path
// too; after the split the slow clone destroys the temporary in its own
// alloca, never through an address kept in the frame.
//
// RUN: %clangxx -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck %s
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup,weft-finish' -S %t.ll | FileCheck --check-prefix=SPLIT %s
#include <cilk/cilk.h>
#include <string>

struct Boom {};
struct Local {
  ~Local();
};
void take(long *out, const std::string &s, long i);

long caught_outside(long *out) {
  try {
    for (long i = 0; i < 8; ++i)
      cilk_spawn take(out + i, std::string(40 + i, 'a'), i);
    cilk_sync;
  } catch (Boom &) {
    return 1;
  }
  return 0;
}

void local_in_body(long *out) {
  for (long i = 0; i < 8; ++i) {
    Local l;
    cilk_spawn take(out + i, std::string(40 + i, 'a'), i);
  }
}

// The wait comes after the string's and the allocator's destructors, at the
// catch dispatch, which all three pads (the string's constructor's, the
// spawned call's, the sync's) reach, and before the end of the life of the
// try block's local (the loop's index): a child may write such a local.
// CHECK-LABEL: define {{.*}} @_Z14caught_outsidePl(
// CHECK: weft.spawn.rethrow:
// CHECK-NEXT: invoke void @__weft_rethrow(ptr %weft.frame)
// CHECK-NEXT: to label %{{.*}} unwind label %[[PAD:[0-9]+]]
// CHECK: [[PAD]]:
// CHECK-NEXT: landingpad { ptr, i32 }
// CHECK-NEXT: cleanup
// CHECK-NEXT: catch ptr @_ZTI4Boom
// CHECK-NEXT: catch ptr null
// CHECK-NEXT: %[[EXN:.*]] = extractvalue { ptr, i32 } %{{.*}}, 0
// CHECK-NEXT: store ptr %[[EXN]], ptr %weft.exn.slot
// CHECK: store i32 %{{.*}}, ptr %[[SEL:[0-9]+]]
// CHECK-NEXT: %[[STR:.*]] = call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID:[0-9]+]])
// CHECK-NEXT: call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev(ptr {{.*}}%[[STR]])
// CHECK: call void @_ZNSt15__new_allocatorIcED2Ev(
// CHECK: call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID]])
// CHECK-NEXT: call void @__weft_statement_lifetime_end(ptr
// CHECK-NEXT: %steals.addr = getelementptr
// CHECK-NEXT: %steals = load i32, ptr %steals.addr
// CHECK: br i1 %{{.*}}, label %weft.lp.sync, label %weft.lp.cleanups
// CHECK: weft.lp.sync:
// CHECK-NEXT: %[[HELD:.*]] = load ptr, ptr %weft.exn.slot
// CHECK-NEXT: call ptr @__weft_hold(ptr %[[HELD]])
// CHECK-NOT: D2Ev
// CHECK: weft.lp.again:
// CHECK-NEXT: invoke void @__weft_rethrow_after_sync(
// CHECK-NEXT: to label %{{.*}} unwind label %weft.lp.resync
// CHECK: weft.lp.resync:
// CHECK-NEXT: landingpad { ptr, i32 }
// CHECK-NEXT: cleanup
// CHECK-NEXT: catch ptr @_ZTI4Boom
// CHECK-NEXT: catch ptr null
// CHECK-NOT: D2Ev
// CHECK: store i32 %{{.*}}, ptr %[[SEL]]
// CHECK-NOT: D2Ev
// CHECK: br label %weft.lp.cleanups
// CHECK: weft.lp.cleanups:
// CHECK-NEXT: call void @llvm.lifetime.end.p0({{(i64 8, )?}}ptr
// CHECK: load i32, ptr %[[SEL]]
// CHECK-NEXT: call i32 @llvm.eh.typeid.for.p0(ptr @_ZTI4Boom)

// The wait comes before the loop body's local is destroyed. A stolen child's
// unwind path destroys the string through a marker call of its own.
// CHECK-LABEL: define {{.*}} @_Z13local_in_bodyPl(
// CHECK: weft.spawn.rethrow:
// CHECK-NEXT: invoke void @__weft_rethrow(ptr %weft.frame)
// CHECK-NEXT: to label %{{.*}} unwind label %[[PAD:[0-9]+]]
// CHECK: weft.spawn.unwind.stolen:
// CHECK-NEXT: %[[STR:.*]] = call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID:[0-9]+]])
// CHECK-NEXT: call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev(ptr {{.*}}%[[STR]])
// CHECK: [[PAD]]:
// CHECK: %[[STR:.*]] = call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID]])
// CHECK-NEXT: call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev(ptr {{.*}}%[[STR]])
// CHECK: call void @_ZNSt15__new_allocatorIcED2Ev(
// CHECK: br i1 %{{.*}}, label %weft.lp.sync, label %weft.lp.cleanups
// CHECK: weft.lp.sync:
// CHECK-NOT: D{{[12]}}Ev
// CHECK: weft.lp.cleanups:
// CHECK-NEXT: call void @_ZN5LocalD1Ev(

// SPLIT-NOT: __weft_statement_alloca
// SPLIT-LABEL: define internal {{.*}} @_Z13local_in_bodyPl.resume(
// SPLIT: %[[STR:[0-9]+]] = alloca [32 x i8], align 8
// SPLIT: call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev(ptr {{.*}}%[[STR]])
// SPLIT: call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev(ptr {{.*}}%[[STR]])
// SPLIT: weft.lp.sync:
// SPLIT-NOT: basic_string{{.*}}D2Ev
// SPLIT: weft.lp.cleanups:
// SPLIT-NEXT: call void @_ZN5LocalD1Ev(
// SPLIT-NOT: __weft_statement_alloca
