// Verify that in race mode ThreadSanitizer, which clang runs after Weft's
// passes, instruments the program's accesses only, at -O0 and -O2: the
// loads and stores the lowering, coro-split and the finish steps make in a
// spawning function's frame (resume pointer, resume index, WeftFrame,
// spills of the record, the loop counter and the arguments) carry
// !nosanitize, while the accesses to a local variable whose address a
// child gets (x, arr) are instrumented, also those whose own address does
// not escape (the frame is laundered through an empty asm, so TSan does
// not take it for a private alloca), as are a global's. The fast path is
// not inlined under TSan. Normal mode gets none of it.
//
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-race -fsanitize=thread -fno-sanitize-link-runtime -O2 -S -emit-llvm %s -o %t.o2.ll
// RUN: %clangxx -fplugin=%plugin -fplugin-arg-weft-race -fsanitize=thread -fno-sanitize-link-runtime -O0 -S -emit-llvm %s -o %t.o0.ll
// RUN: FileCheck %s < %t.o2.ll
// RUN: FileCheck %s < %t.o0.ll
// RUN: FileCheck --check-prefix=OWN %s < %t.o2.ll
// RUN: FileCheck --check-prefix=OWN %s < %t.o0.ll
// RUN: FileCheck --check-prefix=FAST-PATH %s < %t.o2.ll
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=NORMAL %s
// RUN: %clangxx -fplugin=%plugin -O0 -S -emit-llvm %s -o - | FileCheck --check-prefix=NORMAL %s
#include <cilk/cilk.h>

void set(long *p, long v);
long sum(const long *a, int n);
long g;

long f(int n) {
  long x = 0;
  long arr[8];
  for (int i = 0; i < n; ++i)
    cilk_spawn set(&arr[i & 7], i);
  cilk_spawn set(&x, 1);
  x = 2;
  arr[3] = 5;
  cilk_sync;
  g = x;
  return x + sum(arr, 8);
}

// CHECK-LABEL: define {{.*}} @_Z1fi(
// CHECK: call void @__tsan_func_entry(
// CHECK: [[FRAME:%[0-9]+]] = call ptr asm "", "=r,0"(ptr
// CHECK-NOT: call void @__tsan_{{read|write}}4(
// CHECK: call void @__tsan_write8(ptr [[X:%[0-9]+]])
// CHECK-NEXT: store i64 0, ptr [[X]]
// CHECK-NOT: call void @__tsan_{{read|write}}4(
// CHECK: call i64 @__weft_push(
// CHECK-NOT: call void @__tsan_{{read|write}}4(
// CHECK: call void @__tsan_write8(ptr [[X]])
// CHECK-NEXT: store i64 2, ptr [[X]]
// CHECK: call void @__tsan_write8(ptr [[A3:%[0-9]+]])
// CHECK-NEXT: store i64 5, ptr [[A3]]
// CHECK-NOT: call void @__tsan_{{read|write}}4(
// CHECK: call void @__tsan_read8(ptr [[X]])
// CHECK: call void @__tsan_write8(ptr @g)
// CHECK-NOT: call void @__tsan_{{read|write}}4(
// CHECK: call void @__tsan_func_exit()
// CHECK-LABEL: {{^}}}

// The frame's own stores: the resume pointer and the index.
// OWN-LABEL: define {{.*}} @_Z1fi(
// OWN: store ptr @_Z1fi.resume, ptr {{%[0-9]+}}, align 8, !nosanitize
// OWN: store i{{[0-9]+}} {{.*}}, !nosanitize

// The fast path stays out of line (FastPath.cpp): calls, no inlined deque.
// FAST-PATH-LABEL: define {{.*}} @_Z1fi(
// FAST-PATH: call i64 @__weft_push(
// FAST-PATH: call i1 @__weft_pop(
// FAST-PATH-NOT: ThreadWorker

// NORMAL-NOT: nosanitize
// NORMAL-NOT: asm ""
// NORMAL-NOT: __tsan
