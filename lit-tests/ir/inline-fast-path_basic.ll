; Verify that weft-inline-fast-path links in the runtime's fast path and
; inlines it at each push and pop: the push publishes the frame with a
; release store, the thread's worker is read through the opaque call that
; weft-restore-thread-locals later turns back into the intrinsic, and
; neither the calls nor the inline bodies are left. Functions at -O0
; (optnone) or built for ThreadSanitizer keep the calls, and so does a
; module for another target than the fast path's.
;
; RUN: %opt-weft -passes=weft-inline-fast-path -S %s | FileCheck %s
; RUN: %opt-weft -passes=weft-inline-fast-path -mtriple=i686-pc-linux-gnu -S %s | FileCheck --check-prefix=OTHER %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i64 @__weft_push(ptr)
declare i1 @__weft_pop(i64)
declare i64 @child(i64)

; A module without a PIC level builds an executable: the runtime's variables
; are bound locally, the thread's worker with the local-exec model.
; CHECK: @_ZN4weft6detail12ThreadWorkerE = external dso_local thread_local(localexec)

; CHECK-LABEL: define i64 @spawns(ptr %frame, i64 %n)
; CHECK:         call ptr @__weft_threadlocal_address{{.*}}(ptr @_ZN4weft6detail12ThreadWorkerE)
; CHECK:         store atomic i64 {{.*}} release
; CHECK:         %[[MARK:.*]] = phi i64
; CHECK:         %r = call i64 @child(i64 %n)
; CHECK:         call ptr @__weft_threadlocal_address{{.*}}(ptr @_ZN4weft6detail12ThreadWorkerE)
; The pop stores bottom from the push's mark (a release: deque.h,
; reserve()); the bottom it loads is only compared with the mark.
; CHECK:         %[[BOTTOM:.*]] = load atomic i64, ptr %[[BOTTOM_ADDR:.*]] monotonic
; CHECK-NEXT:    icmp eq i64 %[[BOTTOM]], %[[MARK]]
; CHECK:         %[[POPPED:.*]] = add nsw i64 %[[MARK]], -1
; CHECK-NEXT:    store atomic i64 %[[POPPED]], ptr %[[BOTTOM_ADDR]] release
; CHECK-NOT:     call {{.*}}@__weft_pop(
; CHECK-NOT:     call {{.*}}@__weft_pop_inline(
; OTHER-LABEL: define i64 @spawns(ptr %frame, i64 %n)
; OTHER-NEXT:    %mark = call i64 @__weft_push(ptr %frame)
define i64 @spawns(ptr %frame, i64 %n) {
  %mark = call i64 @__weft_push(ptr %frame)
  %r = call i64 @child(i64 %n)
  %owned = call i1 @__weft_pop(i64 %mark)
  %v = select i1 %owned, i64 %r, i64 0
  ret i64 %v
}

; CHECK-LABEL: define i64 @at_o0(ptr %frame, i64 %n)
; CHECK-NEXT:    %mark = call i64 @__weft_push(ptr %frame)
; CHECK-NEXT:    %r = call i64 @child(i64 %n)
; CHECK-NEXT:    %owned = call i1 @__weft_pop(i64 %mark)
define i64 @at_o0(ptr %frame, i64 %n) noinline optnone {
  %mark = call i64 @__weft_push(ptr %frame)
  %r = call i64 @child(i64 %n)
  %owned = call i1 @__weft_pop(i64 %mark)
  %v = select i1 %owned, i64 %r, i64 0
  ret i64 %v
}

; CHECK-LABEL: define i64 @with_tsan(ptr %frame, i64 %n)
; CHECK-NEXT:    %mark = call i64 @__weft_push(ptr %frame)
; CHECK-NEXT:    %r = call i64 @child(i64 %n)
; CHECK-NEXT:    %owned = call i1 @__weft_pop(i64 %mark)
define i64 @with_tsan(ptr %frame, i64 %n) sanitize_thread {
  %mark = call i64 @__weft_push(ptr %frame)
  %r = call i64 @child(i64 %n)
  %owned = call i1 @__weft_pop(i64 %mark)
  %v = select i1 %owned, i64 %r, i64 0
  ret i64 %v
}

; CHECK-NOT: define {{.*}}@__weft_push_inline(
; CHECK-NOT: define {{.*}}@__weft_pop_inline(
; OTHER-NOT: @__weft_push_inline
