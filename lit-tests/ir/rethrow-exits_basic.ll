; Verify that weft-rethrow-exits makes the `unreachable` after each runtime
; rethrow of a fast clone a branch to the function's only return, with a
; zero return value, so that shrink-wrapping can keep the prologue off the
; paths that never spawn. A function that holds no frame, and a fast clone
; with two returns, are left alone.
;
; RUN: %opt-weft -passes=weft-rethrow-exits -S %s | FileCheck %s

declare ptr @__weft_frame_alloc(i64, i64)
declare void @__weft_rethrow(ptr)
declare void @__weft_rethrow_after_sync(ptr)
declare i64 @child(i64)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define i64 @fast(i64 %n)
; CHECK:       lpad:
; CHECK:         call void @__weft_rethrow(ptr %hdr)
; CHECK-NEXT:    br label %exit
; CHECK:       stolen:
; CHECK-NEXT:    invoke void @__weft_rethrow_after_sync(ptr %hdr)
; CHECK-NEXT:            to label %never unwind label %lpad
; CHECK:       never:
; CHECK-NEXT:    br label %exit
; CHECK:       exit:
; CHECK-NEXT:    %weft.ret = phi i64 [ %r, %cont ], [ 0, %lpad ], [ 0, %never ]
; CHECK-NEXT:    ret i64 %weft.ret
define i64 @fast(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %weft.frame.mem = alloca [64 x i8], align 16
  %hdr = getelementptr inbounds i8, ptr %weft.frame.mem, i64 16
  %r = invoke i64 @child(i64 %n)
          to label %cont unwind label %lpad

cont:
  %s = icmp eq i64 %r, 0
  br i1 %s, label %stolen, label %exit

lpad:
  %e = landingpad { ptr, i32 }
          catch ptr null
  call void @__weft_rethrow(ptr %hdr)
  unreachable

stolen:
  invoke void @__weft_rethrow_after_sync(ptr %hdr)
          to label %never unwind label %lpad

never:
  unreachable

exit:
  ret i64 %r
}

; CHECK-LABEL: define i64 @no_frame(i64 %n)
; CHECK:         call void @__weft_rethrow(ptr null)
; CHECK-NEXT:    unreachable
define i64 @no_frame(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i64 @child(i64 %n)
          to label %exit unwind label %lpad

lpad:
  %e = landingpad { ptr, i32 }
          catch ptr null
  call void @__weft_rethrow(ptr null)
  unreachable

exit:
  ret i64 %r
}

; CHECK-LABEL: define i64 @two_returns(i64 %n)
; CHECK:         call void @__weft_rethrow(ptr %mem)
; CHECK-NEXT:    unreachable
define i64 @two_returns(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 64, i64 16)
  %r = invoke i64 @child(i64 %n)
          to label %cont unwind label %lpad

cont:
  %z = icmp eq i64 %r, 0
  br i1 %z, label %zero, label %exit

zero:
  ret i64 0

lpad:
  %e = landingpad { ptr, i32 }
          catch ptr null
  call void @__weft_rethrow(ptr %mem)
  unreachable

exit:
  ret i64 %r
}
