// Verify that weft-lower-spawns makes the objects a spawned call takes in
// memory the statement's own temporaries: a byval struct is copied into a
// fresh statement temporary before the push (a volatile copy, so that
// MemCpyOpt cannot hand the call the shared source again), whose lifetime
// ends in the spawn's window; a class passed by value (std::string), whose
// temporary Clang emits without lifetime markers, gets a lifetime start
// before its constructor and an end after its destructor in the window. In
// a loop the destructor of such a temporary runs in a spawn helper that
// receives the temporary from the parent before the push. Each use of a
// statement temporary gets its address from a marker call of its own, which
// names the temporary by an id, and its lifetime markers are calls on such
// an address (an intrinsic may only mark an alloca); after the split every
// statement temporary is one alloca of the clone that uses it, with lifetime
// intrinsics again.
//
// RUN: %clangxx -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck %s
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup,weft-finish' -S %t.ll | FileCheck --check-prefix=SPLIT %s
#include <cilk/cilk.h>
#include <string>

struct Big {
  long a, b, c;
};
void take_big(long *out, Big v);
void take_string(long *out, std::string s);

void byval(long *out) {
  for (long i = 0; i < 4; ++i)
    cilk_spawn take_big(out + i, Big{i, 2 * i, 3 * i});
  cilk_sync;
}

void by_value_class(long *out) {
  for (long i = 0; i < 4; ++i)
    cilk_spawn take_string(out + i, std::string(20 + i, 'a'));
  cilk_sync;
}

// CHECK-LABEL: define {{.*}} @_Z5byvalPl(
// CHECK: %[[COPY:.*]] = call ptr @__weft_statement_alloca(i64 24, i64 8, i64 [[ID:[0-9]+]])
// CHECK-NEXT: call void @__weft_statement_lifetime_start(ptr %[[COPY]])
// CHECK-NEXT: %[[COPY:.*]] = call ptr @__weft_statement_alloca(i64 24, i64 8, i64 [[ID]])
// CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %[[COPY]], ptr align 8 %{{.*}}, i64 24, i1 true)
// CHECK-NEXT: call token @llvm.coro.save(
// CHECK-NEXT: call i64 @__weft_push(
// CHECK-NEXT: %[[COPY:.*]] = call ptr @__weft_statement_alloca(i64 24, i64 8, i64 [[ID]])
// CHECK-NEXT: invoke void @_Z8take_bigPl3Big(ptr {{.*}}, ptr noundef byval(%struct.Big) align 8 %[[COPY]])
// CHECK-NEXT: to label %[[NEXT:.*]] unwind
// CHECK: [[NEXT]]:
// CHECK-NEXT: %[[COPY:.*]] = call ptr @__weft_statement_alloca(i64 24, i64 8, i64 [[ID]])
// CHECK-NEXT: call void @__weft_statement_lifetime_end(ptr %[[COPY]])
// CHECK-NEXT: call i1 @__weft_pop(i64 %

// CHECK-LABEL: define {{.*}} @_Z14by_value_classPl(
// CHECK: %[[STR:.*]] = call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID:[0-9]+]])
// CHECK-NEXT: call void @__weft_statement_lifetime_start(ptr %[[STR]])
// CHECK: %[[STR:.*]] = call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID]])
// CHECK-NEXT: invoke void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEC2IS3_EEmcRKS3_(ptr {{.*}}%[[STR]],
// CHECK: call i64 @__weft_push(
// CHECK: %[[STR:.*]] = call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID]])
// CHECK-NEXT: invoke void @_Z14by_value_classPl.weft.spawn(ptr %{{.*}}, ptr %[[STR]],
// CHECK-NEXT: to label %[[NEXT:.*]] unwind
// CHECK: [[NEXT]]:
// CHECK: %[[STR:.*]] = call ptr @__weft_statement_alloca(i64 32, i64 8, i64 [[ID]])
// CHECK-NEXT: call void @__weft_statement_lifetime_end(ptr %[[STR]])
// CHECK-NEXT: call i1 @__weft_pop(i64 %

// CHECK-LABEL: define internal void @_Z14by_value_classPl.weft.spawn(
// CHECK: call void @_Z11take_stringPlNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
// CHECK-NEXT: call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED2Ev(

// The lifetime markers are intrinsics on the alloca again (since LLVM 22
// without the size operand).
// SPLIT-NOT: __weft_statement_{{alloca|lifetime}}
// SPLIT-LABEL: define {{.*}} @_Z5byvalPl(
// SPLIT: %weft.byval = alloca [24 x i8], align 8
// SPLIT: call void @llvm.lifetime.start.p0({{(i64 24, )?}}ptr %weft.byval)
// SPLIT: call void @llvm.lifetime.end.p0({{(i64 24, )?}}ptr %weft.byval)
// SPLIT-LABEL: define {{.*}} @_Z5byvalPl.resume(
// SPLIT: %weft.byval = alloca [24 x i8], align 8
// SPLIT: call void @llvm.lifetime.start.p0({{(i64 24, )?}}ptr %weft.byval)
// SPLIT: call void @llvm.lifetime.end.p0({{(i64 24, )?}}ptr %weft.byval)
// SPLIT-NOT: __weft_statement_{{alloca|lifetime}}
