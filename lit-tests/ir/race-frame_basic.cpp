// Verify that weft-race-frame, the post-split step of race mode, puts
// !nosanitize on the loads and stores of a frame's own fields in the fast
// clone (the frame on the stack) and the slow clone (the frame as the
// argument), leaves the accesses to a field whose address a child gets
// unmarked, and hides the fast clone's frame alloca behind an empty asm;
// and that a function without sanitize_thread (not built with
// -fsanitize=thread) is left alone.
//
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-race -fsanitize=thread -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes='weft-lower-spawns<race>,coro-early,cgscc(coro-split),coro-cleanup,weft-finish,weft-race-frame' -S %t.ll | FileCheck %s
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-race -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.nosan.ll
// RUN: %opt-weft -passes='weft-lower-spawns<race>,coro-early,cgscc(coro-split),coro-cleanup,weft-finish,weft-race-frame' -S %t.nosan.ll | FileCheck --check-prefix=NOSAN %s
#include <cilk/cilk.h>

void set(long *p, long v);

long f(long n) {
  long x = 0;
  cilk_spawn set(&x, n);
  x += n;
  cilk_sync;
  return x;
}

// CHECK-LABEL: define {{.*}} @_Z1fl(
// CHECK: %weft.frame.mem = alloca [{{[0-9]+}} x i8]
// CHECK-NEXT: %[[FRAME:.*]] = call ptr asm "", "=r,0"(ptr %weft.frame.mem)
// CHECK: %resume.addr = getelementptr inbounds{{( nuw)?}} %_Z1fl.Frame, ptr %[[FRAME]], i32 0, i32 0
// CHECK: store i64 0, ptr %hdr.word, align 8, !nosanitize
// CHECK: store i32 %weft.race, ptr %weft.race.spill.addr, align 4, !nosanitize
// CHECK: store i64 0, ptr %[[X:[^,]*]], align 8, !tbaa !{{[0-9]+}}{{$}}
// CHECK: store i{{[0-9]+}} 0, ptr %index.addr{{[0-9]*}}, align 1, !nosanitize
// CHECK: store ptr @_Z1fl.resume, ptr %resume.addr, align 8, !nosanitize
// CHECK: invoke void @_Z3setPll(ptr noundef %[[X]],

// CHECK-LABEL: define {{.*}} @_Z1fl.resume(
// CHECK: load i{{[0-9]+}}, ptr %{{.*}}, !nosanitize

// NOSAN-NOT: nosanitize
// NOSAN-NOT: asm ""
