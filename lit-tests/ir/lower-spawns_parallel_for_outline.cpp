// Verify that the front end turns a cilk_for into a serial loop over an
// index between markers that name the loop, and that weft-lower-spawns
// outlines it into an internal function over a subrange: the parent fills
// a context with the addresses of the locals the body shares (the values
// of those it only reads and whose address never escapes), and calls
// the runtime's __weft_parallel_for with the trip count, the grain (from
// `#pragma cilk grainsize`, 0 for the default), the outlined function and
// the context; the outlined function reads the context, starts its own
// index (an alloca of its own, never the parent's) at %lo and stops at
// %hi. A body that spawns becomes a spawning function itself, split into
// fast and slow clones; an exception in the body is caught in the outlined
// function and rethrown by the parent after the loop; a nested loop is
// outlined from the outer one's outlined function. A loop over a range is
// the same loop over its iterator: the parent computes end - begin as the
// trip count, and iteration k's element is begin + k. No marker survives.
//
// RUN: %clangxx -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: FileCheck --check-prefix=MARKS %s < %t.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll -o %t.lowered.ll
// RUN: FileCheck --check-prefix=FILL %s < %t.lowered.ll
// RUN: FileCheck --check-prefix=SPAWN %s < %t.lowered.ll
// RUN: FileCheck --check-prefix=THROW %s < %t.lowered.ll
// RUN: FileCheck --check-prefix=NEST %s < %t.lowered.ll
// RUN: FileCheck --check-prefix=RANGE %s < %t.lowered.ll
// RUN: FileCheck --check-prefix=NOMARKS %s < %t.lowered.ll
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup,weft-finish' -S %t.ll | FileCheck --check-prefix=SPLIT %s
#include <cilk/cilk.h>

long g(long);

void fill(long *out, int n, long k) {
#pragma cilk grainsize 64
  cilk_for (int i = 0; i < n; ++i)
    out[i] = g(i) * k;
}

// MARKS-LABEL: define {{.*}} @_Z4fillPlil(
// MARKS: call void @__weft_pfor(i64 noundef %{{.*}}, i64 noundef 64, i32 noundef [[ID:-?[0-9]+]])
// MARKS: call noundef i64 @__weft_pfor_lo(i32 noundef [[ID]])
// MARKS: call noundef i64 @__weft_pfor_hi(i32 noundef [[ID]])
// MARKS: {{(call|invoke)}} {{.*}}@_Z1gl(
// MARKS: call void @__weft_pfor_end(i32 noundef [[ID]])

// FILL-LABEL: define {{.*}} @_Z4fillPlil(
// FILL: %weft.pfor.ctx = alloca { i32, i64, ptr, ptr }
// FILL: %[[OUT:.*]] = load ptr, ptr
// FILL: store ptr %[[OUT]], ptr %{{.*}}
// FILL: call void @__weft_parallel_for(i64 %{{.*}}, i64 64, ptr @_Z4fillPlil.weft.pfor, ptr %weft.pfor.ctx)
// FILL-NOT: @_Z1gl(
// FILL: ret void
// FILL-LABEL: define internal void @_Z4fillPlil.weft.pfor(ptr %ctx, i64 %lo, i64 %hi)
// FILL-NEXT: newFuncRoot:
// FILL-NEXT: %[[INDEX:.*]] = alloca i64
// FILL: load ptr, ptr %{{.*}}
// FILL: store i64 %lo, ptr %[[INDEX]]
// FILL: %[[K:.*]] = load i64, ptr %[[INDEX]]
// FILL-NEXT: icmp ult i64 %[[K]], %hi
// FILL: {{(call|invoke)}} {{.*}}@_Z1gl(
// FILL: ret void

long fib(long);

void spawning_body(long *out, int n) {
  cilk_for (int i = 0; i < n; ++i) {
    long x = cilk_spawn fib(i);
    long y = fib(i + 1);
    cilk_sync;
    out[i] = x + y;
  }
}

// SPAWN-LABEL: define {{.*}} @_Z13spawning_bodyPli(
// SPAWN: call void @__weft_parallel_for(i64 %{{.*}}, i64 0, ptr @_Z13spawning_bodyPli.weft.pfor, ptr %weft.pfor.ctx)
// SPAWN-NOT: @__weft_push(
// SPAWN: ret void
// SPAWN-LABEL: define internal void @_Z13spawning_bodyPli.weft.pfor(ptr %ctx, i64 %lo, i64 %hi)
// SPAWN-SAME: #[[CORO:[0-9]+]]
// SPAWN: call i64 @__weft_push(
// SPAWN: {{(call|invoke)}} {{.*}}@_Z3fibl(
// SPAWN: call i1 @__weft_pop(i64 %
// SPAWN: attributes #[[CORO]] = {{{.*}}presplitcoroutine

// SPLIT: define internal void @_Z13spawning_bodyPli.weft.pfor(ptr %ctx, i64 %lo, i64 %hi)
// SPLIT: define internal fastcc void @_Z13spawning_bodyPli.weft.pfor.resume(

void throwing_body(long *out, int n) {
  cilk_for (int i = 0; i < n; ++i)
    out[i] = g(i);
}

// THROW-LABEL: define {{.*}} @_Z13throwing_bodyPli(
// THROW: call void @__weft_parallel_for(
// THROW: {{(call|invoke)}} void @__weft_pfor_rethrow(
// THROW-LABEL: define internal void @_Z13throwing_bodyPli.weft.pfor(
// THROW: invoke {{.*}}@_Z1gl(
// THROW: landingpad { ptr, i32 }
// THROW-NEXT: catch ptr null
// THROW: call void @__weft_pfor_catch(ptr

void nested(long *out, int n) {
  cilk_for (int i = 0; i < n; ++i)
    cilk_for (int j = 0; j < n; ++j)
      out[i * n + j] = g(j);
}

// NEST-LABEL: define {{.*}} @_Z6nestedPli(
// NEST: call void @__weft_parallel_for(i64 %{{.*}}, i64 0, ptr @[[OUTER:_Z6nestedPli.weft.pfor.*]], ptr
// NEST-NOT: @_Z1gl(
// NEST: ret void
// NEST-DAG: define internal void @[[OUTER]](ptr %ctx, i64 %lo, i64 %hi)
// NEST-DAG: call void @__weft_parallel_for(i64 %{{.*}}, i64 0, ptr @[[INNER:_Z6nestedPli.weft.pfor[^,]*]], ptr
// NEST-DAG: define internal void @[[INNER]](ptr %ctx, i64 %lo, i64 %hi)

void over_range(long (&a)[100], long k) {
  cilk_for (long &x : a)
    x = g(x) * k;
}

// RANGE-LABEL: define {{.*}} @_Z10over_rangeRA100_ll(
// RANGE: %[[END:.*]] = getelementptr inbounds i64, ptr %{{.*}}, i64 100
// RANGE: sub i64
// RANGE: sdiv exact i64 %{{.*}}, 8
// RANGE: call void @__weft_parallel_for(i64 %{{.*}}, i64 0, ptr @_Z10over_rangeRA100_ll.weft.pfor, ptr %weft.pfor.ctx)
// RANGE-NOT: @_Z1gl(
// RANGE: ret void
// RANGE-LABEL: define internal void @_Z10over_rangeRA100_ll.weft.pfor(ptr %ctx, i64 %lo, i64 %hi)
// RANGE: %[[BEGIN:.*]] = load ptr, ptr %{{.*}}
// RANGE: icmp ult i64 %{{.*}}, %hi
// RANGE: getelementptr inbounds i64, ptr %[[BEGIN]], i64 %{{.*}}
// RANGE: {{(call|invoke)}} {{.*}}@_Z1gl(

// NOMARKS-NOT: __weft_pfor(
// NOMARKS-NOT: __weft_pfor_lo
// NOMARKS-NOT: __weft_pfor_hi
// NOMARKS-NOT: __weft_pfor_end
// NOMARKS-NOT: __weft_pfor_caught
