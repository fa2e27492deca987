// Verify that the post-split steps, run one by one in weft-finish's order,
// give what weft-finish gives: each step alone finds in the IR what the
// pipeline passes on to it (which functions are fast clones, whose frames
// weft-frame-to-stack has already made allocas). The clean-up is left out:
// alone it cleans up the fast clones only, weft-finish<clean-up> also the
// slow clones the fast path was inlined into.
//
// RUN: %clang -fplugin=%plugin -O1 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt-weft -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup' -S %t.ll -o %t.split.ll
// RUN: %opt-weft -passes=weft-finish -S %t.split.ll -o %t.finish.ll
// RUN: %opt-weft -passes=weft-stolen-checks,weft-inline-fast-path,weft-frame-to-stack,weft-place-dynamic-allocas,weft-rethrow-exits,weft-restore-thread-locals -S %t.split.ll -o %t.steps.ll
// RUN: diff %t.finish.ll %t.steps.ll
// RUN: FileCheck %s < %t.steps.ll
#include <cilk/cilk.h>

static long count(int n, int depth) {
  if (depth == 0)
    return n;
  long a = cilk_spawn count(n, depth - 1);
  // A VLA after a spawn: a stack alloca in the fast clone, an allocation
  // from the frame's arena in the slow clone.
  char marks[n];
  for (int i = 0; i < n; ++i)
    marks[i] = (char)(i + depth);
  long b = cilk_spawn count(n, depth - 1);
  cilk_sync;
  return a + b + marks[n - 1];
}

long run(int n) { return count(n, 4); }

// CHECK-LABEL: define internal {{.*}}@count(
// CHECK:         alloca [{{[0-9]+}} x i8], align 16
// CHECK:         call ptr @llvm.stacksave
// CHECK-LABEL: define internal {{.*}}@count.resume(
// CHECK:         call ptr @__weft_arena_alloc(
// CHECK-NOT: @__weft_frame_alloc(i64
// CHECK-NOT: @__weft_dynamic_alloca
