; Verify that weft-frame-to-stack makes a frame allocation of a constant size
; an alloca in the entry block of the function that holds it, drops its free
; and every `tail` mark in that function, drops the store of the destroy
; function and the escape markers, and sinks the frame's initialisation
; below the test that returns before the first spawn. A frame of a size
; only known at run time is an error (frame-to-stack_non_constant_size.ll).
;
; RUN: %opt-weft -passes=weft-frame-to-stack -S %s | FileCheck %s

declare ptr @__weft_frame_alloc(i64, i64)
declare void @__weft_frame_free(ptr)
declare i64 @__weft_push(ptr)
declare i64 @child(i64)
declare void @f.resume(ptr)
declare void @f.destroy(ptr)

; Each line of the result is checked: no store of @f.destroy, no escape
; marker, no `tail` call and no free are left.
; CHECK-LABEL: define i64 @f(i64 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %weft.frame.mem = alloca [48 x i8], align 16
; CHECK-NEXT:    %destroy.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 8
; CHECK-NEXT:    %hdr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 16
; CHECK-NEXT:    %spill = getelementptr inbounds i8, ptr %weft.frame.mem, i64 40
; CHECK-NEXT:    %leaf = icmp slt i64 %n, 2
; CHECK-NEXT:    br i1 %leaf, label %exit, label %spawn
; CHECK-EMPTY:
; CHECK-NEXT:  spawn:
; CHECK-NEXT:    store ptr @f.resume, ptr %weft.frame.mem
; CHECK-NEXT:    store ptr %weft.frame.mem, ptr %hdr
; CHECK-NEXT:    store i64 %n, ptr %spill
; CHECK-NEXT:    %mark = call i64 @__weft_push(ptr %hdr)
; CHECK-NEXT:    %n1 = load i64, ptr %spill
; CHECK-NEXT:    %r = call i64 @child(i64 %n1)
; CHECK-NEXT:    br label %exit
; CHECK-EMPTY:
; CHECK-NEXT:  exit:
; CHECK-NEXT:    %v = phi i64 [ %n, %entry ], [ %r, %spawn ]
; CHECK-NEXT:    ret i64 %v
; CHECK-NEXT:  }
define i64 @f(i64 %n) {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 48, i64 16)
  %destroy.addr = getelementptr inbounds i8, ptr %mem, i64 8
  %hdr = getelementptr inbounds i8, ptr %mem, i64 16
  %spill = getelementptr inbounds i8, ptr %mem, i64 40
  store ptr @f.resume, ptr %mem
  store ptr @f.destroy, ptr %destroy.addr
  store ptr %mem, ptr %hdr
  store i64 %n, ptr %spill
  call void asm sideeffect "", "r,~{memory}"(ptr %spill), !weft.escape !0
  %leaf = icmp slt i64 %n, 2
  br i1 %leaf, label %exit, label %spawn

spawn:
  %mark = call i64 @__weft_push(ptr %hdr)
  %n1 = load i64, ptr %spill
  %r = tail call i64 @child(i64 %n1)
  br label %exit

exit:
  %v = phi i64 [ %n, %entry ], [ %r, %spawn ]
  call void @__weft_frame_free(ptr %mem)
  ret i64 %v
}

!0 = !{}

; A frame that coro-split laid out for 64-byte alignment (a value kept in it
; is over-aligned) gets an alloca aligned as much, so that the stack is
; realigned; one aligned less still gets the promise's 16.
; CHECK-LABEL: define void @wide()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %weft.frame.mem = alloca [192 x i8], align 64
; CHECK-LABEL: define void @narrow()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %weft.frame.mem = alloca [40 x i8], align 16
define void @wide() {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 192, i64 64)
  %v = getelementptr inbounds i8, ptr %mem, i64 64
  store <8 x double> zeroinitializer, ptr %v, align 64
  call void @__weft_frame_free(ptr %mem)
  ret void
}

define void @narrow() {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 40, i64 8)
  %v = getelementptr inbounds i8, ptr %mem, i64 32
  store i64 0, ptr %v, align 8
  call void @__weft_frame_free(ptr %mem)
  ret void
}

; The function's own locals, which coro-split left in the blocks that run
; once after the entry, go back to the entry block: elsewhere each would be
; a dynamic alloca, moving the stack pointer by 16 bytes (byval_vectors_o0.c).
; A local in a block that may run more than once stays where it is.
; CHECK-LABEL: define void @locals(i1 %c)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca <8 x i64>, align 64
; CHECK-NEXT:    %b = alloca i32, align 4
; CHECK-NEXT:    %weft.frame.mem = alloca [64 x i8], align 64
; CHECK:       loop:
; CHECK-NEXT:    %c.addr = alloca i32, align 4
define void @locals(i1 %c) {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 64, i64 64)
  br label %split

split:
  %a = alloca <8 x i64>, align 64
  br label %split2

split2:
  %b = alloca i32, align 4
  store i32 0, ptr %b
  br label %loop

loop:
  %c.addr = alloca i32, align 4
  br i1 %c, label %loop, label %exit

exit:
  call void @__weft_frame_free(ptr %mem)
  ret void
}
