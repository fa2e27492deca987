// Verify that a spawning function's frame is allocated at the alignment
// coro-split lays it out for: weft-lower-spawns passes coro.align to the
// frame allocation, and after the split the fast clone's frame is an alloca
// aligned as the 32-byte vector kept in it, so that the stack is realigned
// (a __m256d spilled there with an aligned move crashed). The promise stays
// at the runtime's 16 bytes, so a result type aligned more is kept in it as
// bytes at a 16-byte offset and moved with 16-byte-aligned loads and stores.
// run/avx_vectors.c and run/overaligned_values.cpp run such programs.
//
// RUN: %clangxx -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes=weft-lower-spawns -S %t.ll | FileCheck --check-prefix=LOWER %s
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup,weft-finish' -S %t.ll | FileCheck --check-prefix=SPLIT %s
#include <cilk/cilk.h>

typedef double v4d __attribute__((vector_size(32)));
v4d g(v4d a);
long work(long);

v4d h(long n) {
  v4d a = {1, 2, 3, 4};
  v4d r = cilk_spawn g(a);
  long y = work(n);
  cilk_sync;
  return r + a * double(y);
}

// LOWER: %[[FRAME:_Z1hl.weft.frame]] = type { [5 x i64], [8 x i8], [32 x i8] }
// LOWER-LABEL: define {{.*}} @_Z1hl(
// LOWER: %weft.frame = alloca %[[FRAME]], align 16
// LOWER: %[[SIZE:.*]] = call i64 @llvm.coro.size.i64()
// LOWER-NEXT: %[[ALIGN:.*]] = call i64 @llvm.coro.align.i64()
// LOWER-NEXT: call ptr @__weft_frame_alloc(i64 %[[SIZE]], i64 %[[ALIGN]])
// LOWER: %[[LOAD:.*]] = getelementptr inbounds {{(nuw )?}}%[[FRAME]], ptr %weft.frame, i32 0, i32 2
// LOWER-NEXT: load <4 x double>, ptr %[[LOAD]], align 16
// LOWER: %[[STORE:.*]] = getelementptr inbounds {{(nuw )?}}%[[FRAME]], ptr %weft.frame, i32 0, i32 2
// LOWER-NEXT: store <4 x double> %{{.*}}, ptr %[[STORE]], align 16

// SPLIT-LABEL: define {{.*}} <4 x double> @_Z1hl(
// SPLIT: %weft.frame.mem = alloca [{{[0-9]+}} x i8], align 32
// SPLIT-LABEL: define internal fastcc void @_Z1hl.resume(ptr noundef nonnull align 32
