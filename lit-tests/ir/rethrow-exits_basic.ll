; Verify that weft-rethrow-exits makes the `unreachable` after each runtime
; rethrow of a fast clone a branch to the function's one return, with a
; zero return value, so that shrink-wrapping can keep the prologue off the
; paths that never spawn. A fast clone with two returns gets one first, and
; then a leaf's path that reaches it with no call on the way gets its own
; back. A function that holds no frame, and one whose return follows a
; musttail call, are left alone.
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
; CHECK:       zero:
; CHECK-NEXT:    br label %weft.return
; CHECK:       lpad:
; CHECK:         call void @__weft_rethrow(ptr %mem)
; CHECK-NEXT:    br label %weft.return
; CHECK:       exit:
; CHECK-NEXT:    br label %weft.return
; CHECK:       weft.return:
; CHECK-NEXT:    %weft.ret = phi i64 [ 0, %zero ], [ %r, %exit ], [ 0, %lpad ]
; CHECK-NEXT:    ret i64 %weft.ret
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

; The leaf's `ret` is shared with the stolen exit's: after the returns are
; made one, the leaf's edge gets a return of its own, and the others share
; the one the rethrow reaches.
; CHECK-LABEL: define void @leaf_shares_return(i64 %n)
; CHECK:       entry:
; CHECK:         br i1 %leaf, label %[[LEAF:.*]], label %rec
; CHECK:       lpad:
; CHECK:         call void @__weft_rethrow(ptr %weft.frame.mem)
; CHECK-NEXT:    br label %weft.return
; CHECK:       [[LEAF]]:
; CHECK-NEXT:    ret void
; CHECK:       done:
; CHECK-NEXT:    br label %weft.return
; CHECK:       weft.return:
; CHECK-NEXT:    ret void
; CHECK-NOT:   ret
define void @leaf_shares_return(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %weft.frame.mem = alloca [64 x i8], align 16
  %leaf = icmp slt i64 %n, 2
  br i1 %leaf, label %done, label %rec

rec:
  %r = invoke i64 @child(i64 %n)
          to label %cont unwind label %lpad

cont:
  %z = icmp eq i64 %r, 0
  br i1 %z, label %done, label %more

more:
  %r2 = call i64 @child(i64 %r)
  ret void

lpad:
  %e = landingpad { ptr, i32 }
          catch ptr null
  call void @__weft_rethrow(ptr %weft.frame.mem)
  unreachable

done:
  ret void
}

; A return right after a musttail call must stay where it is.
; CHECK-LABEL: define i64 @musttail(i64 %n)
; CHECK:         call void @__weft_rethrow(ptr %mem)
; CHECK-NEXT:    unreachable
define i64 @musttail(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 64, i64 16)
  %r = invoke i64 @child(i64 %n)
          to label %cont unwind label %lpad

cont:
  %z = icmp eq i64 %r, 0
  br i1 %z, label %zero, label %exit

zero:
  %t = musttail call i64 @child(i64 %n)
  ret i64 %t

lpad:
  %e = landingpad { ptr, i32 }
          catch ptr null
  call void @__weft_rethrow(ptr %mem)
  unreachable

exit:
  ret i64 %r
}
