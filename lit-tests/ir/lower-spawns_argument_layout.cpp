// Verify that the front end describes the arguments of a spawned call that
// passes a class that is not trivial for calls by value (one letter per IR
// argument: S one argument, T the class's temporary, ? a struct), only for
// such calls, with `this` first for a member call; and that
// weft-lower-spawns gives each such temporary a lifetime of its own around
// the spawned statement even though nothing destroys it (a trivial
// destructor), and drops the layout strings with the marks.
//
// RUN: %clangxx -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: FileCheck --check-prefix=MARKS %s < %t.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=LOWER %s
#include <cilk/cilk.h>

struct Tagged {
  explicit Tagged(long x);
  Tagged(const Tagged &o);
  long v[2];
};
struct Small {
  long a, b;
};
void take(long *out, Tagged t);
void plain(long *out, long i);
struct Sink {
  void put(Small s, Tagged t);
};

void loop(long *r, Sink &k) {
  for (long i = 0; i < 8; ++i) {
    cilk_spawn take(r + i, Tagged(i));
    cilk_spawn k.put(Small{i, i}, Tagged(i));
    cilk_spawn plain(r, i);
  }
  cilk_sync;
}

// MARKS-DAG: @[[ST:.*]] = private unnamed_addr constant [3 x i8] c"ST\00"
// MARKS-DAG: @[[SQT:.*]] = private unnamed_addr constant [4 x i8] c"S?T\00"
// MARKS-LABEL: define {{.*}} @_Z4loopPlR4Sink(
// MARKS: call {{.*}} @__weft_spawn_marker(ptr {{.*}}@_Z4takePl6Tagged, i32 {{.*}}, ptr {{.*}}@[[ST]])
// MARKS: call {{.*}} @__weft_spawn_object(ptr {{.*}}, i32 {{.*}}, ptr {{.*}}@[[SQT]])
// MARKS: call {{.*}} @__weft_spawn_marker(ptr {{.*}}@_Z5plainPll, i32 noundef {{[0-9]+}})

// Each use of a statement temporary gets its address from a marker call of
// its own, naming the temporary by an id (DynamicAllocas.cpp).
// LOWER-LABEL: define {{.*}} @_Z4loopPlR4Sink(
// LOWER: call void @__weft_statement_lifetime_start(ptr %[[T1:[0-9a-z.]+]])
// LOWER-NEXT: %[[T1:[0-9a-z.]+]] = call ptr @__weft_statement_alloca(i64 16, i64 8, i64 [[ID1:[0-9]+]])
// LOWER-NEXT: {{call|invoke}} void @_ZN6TaggedC1El(ptr {{.*}}%[[T1]],
// LOWER: %[[T1:[0-9a-z.]+]] = call ptr @__weft_statement_alloca(i64 16, i64 8, i64 [[ID1]])
// LOWER-NEXT: {{call|invoke}} void @_Z4takePl6Tagged(ptr {{.*}}, ptr {{.*}}%[[T1]])
// LOWER: %[[T1:[0-9a-z.]+]] = call ptr @__weft_statement_alloca(i64 16, i64 8, i64 [[ID1]])
// LOWER-NEXT: call void @__weft_statement_lifetime_end(ptr %[[T1]])
// LOWER: call void @__weft_statement_lifetime_start(ptr %[[T2:[0-9a-z.]+]])
// LOWER-NEXT: %[[T2:[0-9a-z.]+]] = call ptr @__weft_statement_alloca(i64 16, i64 8, i64 [[ID2:[0-9]+]])
// LOWER-NEXT: {{call|invoke}} void @_ZN6TaggedC1El(ptr {{.*}}%[[T2]],
// LOWER: %[[T2:[0-9a-z.]+]] = call ptr @__weft_statement_alloca(i64 16, i64 8, i64 [[ID2]])
// LOWER-NEXT: {{call|invoke}} void @_ZN4Sink3putE5Small6Tagged(ptr {{.*}}, i64 {{.*}}, i64 {{.*}}, ptr {{.*}}%[[T2]])
// LOWER: %[[T2:[0-9a-z.]+]] = call ptr @__weft_statement_alloca(i64 16, i64 8, i64 [[ID2]])
// LOWER-NEXT: call void @__weft_statement_lifetime_end(ptr %[[T2]])
// LOWER-NOT: weft-arg-temporaries
// LOWER-NOT: c"ST\00"
