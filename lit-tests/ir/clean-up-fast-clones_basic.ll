; Verify that weft-clean-up-fast-clones gives the fast clones (the functions
; that hold a frame) the short clean-up that nothing after the end of the
; pipeline would give them: a load of the frame forwarded from its store,
; the dead store and the branch that folded away go. A function without a
; frame, and a fast clone at -O0 (optnone), are left as they are.
;
; RUN: %opt-weft -passes=weft-clean-up-fast-clones -S %s | FileCheck %s

declare i64 @child(i64)
declare void @never()

; CHECK-LABEL: define i64 @fast(i64 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r = call i64 @child(i64 %n)
; CHECK-NEXT:    ret i64 %r
; CHECK-NEXT:  }
define i64 @fast(i64 %n) {
entry:
  %weft.frame.mem = alloca [48 x i8], align 16
  %spill = getelementptr inbounds i8, ptr %weft.frame.mem, i64 40
  store i64 %n, ptr %spill
  %n1 = load i64, ptr %spill
  br i1 false, label %dead, label %live

dead:
  call void @never()
  br label %live

live:
  %r = call i64 @child(i64 %n1)
  ret i64 %r
}

; CHECK-LABEL: define i64 @no_frame(i64 %n)
; CHECK:         store i64 %n, ptr %spill
; CHECK-NEXT:    %n1 = load i64, ptr %spill
; CHECK:         call void @never()
define i64 @no_frame(i64 %n) {
entry:
  %slot = alloca [48 x i8], align 16
  %spill = getelementptr inbounds i8, ptr %slot, i64 40
  store i64 %n, ptr %spill
  %n1 = load i64, ptr %spill
  br i1 false, label %dead, label %live

dead:
  call void @never()
  br label %live

live:
  %r = call i64 @child(i64 %n1)
  ret i64 %r
}

; CHECK-LABEL: define i64 @at_o0(i64 %n)
; CHECK:         store i64 %n, ptr %spill
; CHECK-NEXT:    %n1 = load i64, ptr %spill
; CHECK:         call void @never()
define i64 @at_o0(i64 %n) noinline optnone {
entry:
  %weft.frame.mem = alloca [48 x i8], align 16
  %spill = getelementptr inbounds i8, ptr %weft.frame.mem, i64 40
  store i64 %n, ptr %spill
  %n1 = load i64, ptr %spill
  br i1 false, label %dead, label %live

dead:
  call void @never()
  br label %live

live:
  %r = call i64 @child(i64 %n1)
  ret i64 %r
}
