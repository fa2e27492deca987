; __weft_frame_alloc is a placeholder that no runtime defines: after
; coro-split every frame size is a constant and the allocation becomes an
; alloca; a size left non-constant is an internal error, not an undefined
; reference for the link to find (finish/FrameToStack.cpp).
; RUN: %opt-weft -passes=weft-frame-to-stack -S %s -o - | FileCheck %s
; RUN: not %opt-weft -passes=weft-frame-to-stack -disable-output \
; RUN:   %S/Inputs/frame-to-stack_non_constant_size.ll 2>&1 | FileCheck %s --check-prefix=ERR
; ERR: error: {{.*}}weft: internal error: a coroutine frame of non-constant size or alignment after coro-split

declare ptr @__weft_frame_alloc(i64, i64)
declare void @__weft_frame_free(ptr)
declare void @use(ptr)

; CHECK-LABEL: define void @constant(
; CHECK: %weft.frame.mem = alloca [48 x i8], align 16
; CHECK-NOT: __weft_frame_alloc
; CHECK-NOT: __weft_frame_free
define void @constant() {
  %mem = call ptr @__weft_frame_alloc(i64 48, i64 16)
  call void @use(ptr %mem)
  call void @__weft_frame_free(ptr %mem)
  ret void
}
