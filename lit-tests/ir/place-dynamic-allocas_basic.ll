; Verify that weft-place-dynamic-allocas puts back what the lowering hid
; behind markers: in a fast clone (a function that allocates a frame, before
; or after weft-frame-to-stack) a dynamic alloca, a stack save and a stack
; restore become themselves again; in a slow clone the alloca comes from the
; frame's arena, the save is null and the restore nothing. A spawned
; statement's temporary becomes one static alloca per id and function.
;
; RUN: %opt-weft -passes=weft-place-dynamic-allocas -S %s | FileCheck %s

declare ptr @__weft_frame_alloc(i64, i64)
declare ptr @__weft_dynamic_alloca(ptr, i64, i64)
declare ptr @__weft_stack_save()
declare void @__weft_stack_restore(ptr)
declare ptr @__weft_statement_alloca(i64, i64, i64)
declare void @use(ptr)

; CHECK-NOT: @__weft_dynamic_alloca
; CHECK-NOT: @__weft_stack_save
; CHECK-NOT: @__weft_stack_restore
; CHECK-NOT: @__weft_statement_alloca

; CHECK-LABEL: define void @g(ptr %arena, i64 %bytes)
; CHECK-NEXT:    %[[TMP:.+]] = alloca [24 x i8], align 8
; CHECK-NEXT:    %weft.frame.mem = alloca [64 x i8], align 16
; CHECK-NEXT:    %s = call ptr @llvm.stacksave.p0()
; CHECK-NEXT:    %a = alloca i8, i64 %bytes, align 8
; CHECK-NEXT:    call void @use(ptr %a)
; CHECK-NEXT:    call void @use(ptr %[[TMP]])
; CHECK-NEXT:    call void @use(ptr %[[TMP]])
; CHECK-NEXT:    call void @llvm.stackrestore.p0(ptr %s)
; CHECK-NEXT:    ret void
define void @g(ptr %arena, i64 %bytes) {
  %weft.frame.mem = alloca [64 x i8], align 16
  %s = call ptr @__weft_stack_save()
  %a = call ptr @__weft_dynamic_alloca(ptr %arena, i64 %bytes, i64 8)
  call void @use(ptr %a)
  %t1 = call ptr @__weft_statement_alloca(i64 24, i64 8, i64 0)
  call void @use(ptr %t1)
  %tmp = call ptr @__weft_statement_alloca(i64 24, i64 8, i64 0)
  call void @use(ptr %tmp)
  call void @__weft_stack_restore(ptr %s)
  ret void
}

; CHECK-LABEL: define void @g.resume(ptr %frame, ptr %arena, i64 %bytes)
; CHECK-NEXT:    %tmp = alloca [24 x i8], align 8
; CHECK-NEXT:    %a = call ptr @__weft_arena_alloc(ptr %arena, i64 %bytes, i64 8)
; CHECK-NEXT:    call void @use(ptr %a)
; CHECK-NEXT:    call void @use(ptr %tmp)
; CHECK-NEXT:    call void @use(ptr null)
; CHECK-NEXT:    ret void
define void @g.resume(ptr %frame, ptr %arena, i64 %bytes) {
  %s = call ptr @__weft_stack_save()
  %a = call ptr @__weft_dynamic_alloca(ptr %arena, i64 %bytes, i64 8)
  call void @use(ptr %a)
  %tmp = call ptr @__weft_statement_alloca(i64 24, i64 8, i64 0)
  call void @use(ptr %tmp)
  call void @use(ptr %s)
  call void @__weft_stack_restore(ptr %s)
  ret void
}

; A fast clone whose frame is still the allocation call.
; CHECK-LABEL: define void @h(i64 %bytes)
; CHECK-NEXT:    %frame = call ptr @__weft_frame_alloc(i64 64, i64 16)
; CHECK:         %a = alloca i8, i64 %bytes, align 16
define void @h(i64 %bytes) {
  %frame = call ptr @__weft_frame_alloc(i64 64, i64 16)
  %arena = getelementptr inbounds i8, ptr %frame, i64 56
  %a = call ptr @__weft_dynamic_alloca(ptr %arena, i64 %bytes, i64 16)
  call void @use(ptr %a)
  ret void
}

; CHECK: declare ptr @__weft_arena_alloc(ptr, i64, i64) #[[NOUNWIND:[0-9]+]]
; CHECK: attributes #[[NOUNWIND]] = { nounwind }
