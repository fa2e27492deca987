; Verify that weft-spawn-tail-calls turns a fast clone's last recursive
; call, made after its pop, into a loop when the frame stays private: the
; load of the spawn's result after the call moves above it, the first round
; is peeled so that a leaf returns its argument before any of the loop, the
; loop initialises the frame no more (resume pointer, header, resume
; index: the first round did), and the sum lives in the frame's destroy
; slot (offset 8). A fast clone that hands a pointer into its frame to the
; program's own function is left alone.
;
; RUN: %opt-weft -passes=weft-spawn-tail-calls -S %s | FileCheck %s

declare i64 @__weft_push(ptr)
declare i1 @__weft_pop(i64)
declare void @__weft_spawn_stolen(ptr)
declare void @use(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define i64 @fib(i64 %n)
; CHECK:         %[[ACC:[0-9]+]] = getelementptr inbounds i8, ptr %weft.frame.mem, i32 8
; CHECK:         br i1 %leaf.peel, label %[[LEAF:[0-9]+]], label %spawn.peel
; CHECK:       spawn.peel:
; CHECK:         store ptr @fib.resume, ptr %weft.frame.mem
; CHECK:         store i64 0, ptr %[[ACC]]
; CHECK:         call void @llvm.memset
; CHECK:       cont.peel:
; CHECK:         %x.reload.peel = load i64, ptr %x.addr.peel
; CHECK-NEXT:    store i64 %x.reload.peel, ptr %[[ACC]]
; CHECK:       tailrecurse:
; CHECK-NOT:     store ptr @fib.resume
; CHECK-NOT:     call void @llvm.memset
; CHECK-NOT:     store i2
; CHECK:         %x = call i64 @fib(
; CHECK:       cont:
; CHECK:         %sum = add nsw i64 %x.reload, %acc
; CHECK-NEXT:    store i64 %sum, ptr %[[ACC]]
; CHECK-NEXT:    br label %tailrecurse, {{.*}}!weft.tail.loop
; CHECK:       stolen:
; CHECK:         call void @__weft_spawn_stolen(
; CHECK:       [[LEAF]]:
; CHECK-NEXT:    %[[N:[0-9]+]] = add nsw i64 %n, 0
; CHECK-NEXT:    ret i64 %[[N]]
; CHECK:       ret:
; CHECK:         %accumulator.ret.tr = add nsw i64 %r, %acc
; CHECK-NEXT:    ret i64 %accumulator.ret.tr
define i64 @fib(i64 %n) {
entry:
  %weft.frame.mem = alloca [104 x i8], align 16
  %x.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 64
  %hdr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 16
  %n.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 72
  %leaf = icmp slt i64 %n, 2
  br i1 %leaf, label %ret, label %spawn

spawn:
  %index.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 96
  store i2 0, ptr %index.addr, align 1
  store ptr @fib.resume, ptr %weft.frame.mem, align 8
  store i64 %n, ptr %n.addr, align 8
  call void @llvm.memset.p0.i64(ptr align 16 %hdr, i8 0, i64 40, i1 false)
  %n1 = add nsw i64 %n, -1
  %mark = call i64 @__weft_push(ptr %hdr)
  %x = call i64 @fib(i64 %n1)
  store volatile i64 %x, ptr %x.addr, align 8
  %owned = call i1 @__weft_pop(i64 %mark)
  br i1 %owned, label %cont, label %stolen

cont:
  %n.reload = load i64, ptr %n.addr, align 8
  %n2 = add nsw i64 %n.reload, -2
  %y = call i64 @fib(i64 %n2)
  %x.reload = load i64, ptr %x.addr, align 8
  %sum = add nsw i64 %x.reload, %y
  br label %ret

stolen:
  call void @__weft_spawn_stolen(ptr %hdr)
  %result.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 56
  %result = load i64, ptr %result.addr, align 8
  br label %ret

ret:
  %r = phi i64 [ %n, %entry ], [ %sum, %cont ], [ %result, %stolen ]
  ret i64 %r
}


; CHECK-LABEL: define i64 @escapes(i64 %n)
; CHECK-NOT:     tailrecurse
; CHECK-NOT:     !weft.tail.loop
; CHECK:         call void @use(ptr %x.addr)
; CHECK-NEXT:    %y = call i64 @escapes(i64 %n2)
; CHECK:       ret:
; CHECK-NEXT:    %r = phi
; CHECK-NEXT:    ret i64 %r
define i64 @escapes(i64 %n) {
entry:
  %weft.frame.mem = alloca [104 x i8], align 16
  %x.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 64
  %hdr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 16
  %n.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 72
  %leaf = icmp slt i64 %n, 2
  br i1 %leaf, label %ret, label %spawn

spawn:
  %index.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 96
  store i2 0, ptr %index.addr, align 1
  store ptr @escapes.resume, ptr %weft.frame.mem, align 8
  store i64 %n, ptr %n.addr, align 8
  call void @llvm.memset.p0.i64(ptr align 16 %hdr, i8 0, i64 40, i1 false)
  %n1 = add nsw i64 %n, -1
  %mark = call i64 @__weft_push(ptr %hdr)
  %x = call i64 @escapes(i64 %n1)
  store volatile i64 %x, ptr %x.addr, align 8
  %owned = call i1 @__weft_pop(i64 %mark)
  br i1 %owned, label %cont, label %stolen

cont:
  %n.reload = load i64, ptr %n.addr, align 8
  %n2 = add nsw i64 %n.reload, -2
  call void @use(ptr %x.addr)
  %y = call i64 @escapes(i64 %n2)
  %x.reload = load i64, ptr %x.addr, align 8
  %sum = add nsw i64 %x.reload, %y
  br label %ret

stolen:
  call void @__weft_spawn_stolen(ptr %hdr)
  %result.addr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 56
  %result = load i64, ptr %result.addr, align 8
  br label %ret

ret:
  %r = phi i64 [ %n, %entry ], [ %sum, %cont ], [ %result, %stolen ]
  ret i64 %r
}


define internal void @fib.resume(ptr %frame) {
  ret void
}

define internal void @escapes.resume(ptr %frame) {
  ret void
}
