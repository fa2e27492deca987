; Verify that weft-race-frame hides from ThreadSanitizer an access that spans
; two frame fields whose address no clone takes: the SLP vectorizer joins
; the spills of two adjacent values into one 16-byte load or store. Left
; instrumented, the accesses of a child's frame and of a later frame at the
; same stack address were reported as a race (random campaign, seed 179 at
; -O2 with LLVM 22). An access that also touches a field whose address is
; taken (the program's variable, passed to a call) stays instrumented.
;
; RUN: %opt-weft -passes=weft-race-frame -S %s | FileCheck %s

%f.Frame = type { ptr, ptr, [40 x i8], i64, i64, i64 }

declare void @f.resume(ptr)
declare void @take(ptr)

; CHECK-LABEL: define void @f(
; CHECK:         load <2 x i64>, ptr %spills, align 8, !nosanitize
; CHECK:         store <2 x i64> %v, ptr %spills, align 8, !nosanitize
; CHECK:         load <2 x i64>, ptr %mixed, align 8{{$}}
define void @f() sanitize_thread {
entry:
  %frame = alloca %f.Frame, align 16
  store ptr @f.resume, ptr %frame, align 8
  %spills = getelementptr inbounds i8, ptr %frame, i64 56
  %v = load <2 x i64>, ptr %spills, align 8
  store <2 x i64> %v, ptr %spills, align 8
  %var = getelementptr inbounds i8, ptr %frame, i64 72
  call void @take(ptr %var)
  %mixed = getelementptr inbounds i8, ptr %frame, i64 64
  %w = load <2 x i64>, ptr %mixed, align 8
  ret void
}

; A load through a phi of two spill slots' addresses (the optimizer's merge
; of a loop variable's reloads from the slot before the loop and the one in
; it, seed 29) is hidden too: every address it may take is the frame's own.
; One that may also take a field whose address is taken stays instrumented.
; A phi with an incoming that is no frame address makes its fields the
; program's, in every clone (@h: a coroutine of its own).
%g.Frame = type { ptr, ptr, [40 x i8], i64, i64, i64 }
%h.Frame = type { ptr, ptr, [40 x i8], i64, i64, i64 }
declare void @g.resume(ptr)
declare void @h.resume(ptr)

; CHECK-LABEL: define void @g(
; CHECK:         %own = load i64, ptr %p, align 8, !nosanitize
; CHECK:         %mixed = load i64, ptr %q, align 8{{$}}
define void @g(i1 %c) sanitize_thread {
entry:
  %frame = alloca %g.Frame, align 16
  store ptr @g.resume, ptr %frame, align 8
  %a = getelementptr inbounds i8, ptr %frame, i64 56
  %b = getelementptr inbounds i8, ptr %frame, i64 64
  %t = getelementptr inbounds i8, ptr %frame, i64 72
  call void @take(ptr %t)
  br i1 %c, label %left, label %join

left:
  br label %join

join:
  %p = phi ptr [ %a, %entry ], [ %b, %left ]
  %q = phi ptr [ %a, %entry ], [ %t, %left ]
  %own = load i64, ptr %p, align 8
  %mixed = load i64, ptr %q, align 8
  ret void
}

; CHECK-LABEL: define void @h(
; CHECK:         %spill = load i64, ptr %a, align 8{{$}}
; CHECK:         %foreign = load i64, ptr %r, align 8{{$}}
define void @h(i1 %c, ptr %other) sanitize_thread {
entry:
  %frame = alloca %h.Frame, align 16
  store ptr @h.resume, ptr %frame, align 8
  %a = getelementptr inbounds i8, ptr %frame, i64 56
  %spill = load i64, ptr %a, align 8
  br i1 %c, label %left, label %join

left:
  br label %join

join:
  %r = phi ptr [ %a, %entry ], [ %other, %left ]
  %foreign = load i64, ptr %r, align 8
  ret void
}
