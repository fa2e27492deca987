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

; A phi may merge other phis of slot addresses: the landing pad that joins
; the cleanups of several spawns reloads a vector's pointer through a phi
; of the pads' phis (random campaign, seed 140789 at -O2). Every address
; the outer phi may take is the frame's own, so the loads through both
; phis and the plain reload of a slot they merge are hidden. Counted as
; an address let go, the outer phi made the slots the program's, and the
; reload at a continuation's start, before its hook, was reported as the
; child's read racing with the parent's next spill. A loop's phi that
; merges itself through another (@l) is followed once. A phi of phis one
; of which may take a foreign address (@m) still makes its slots the
; program's. InstCombine folds a phi of two GEPs of the frame into a GEP
; of the frame by a phi of the offsets (@n, the slow clone of the same
; seed); that index is one of two constants, and the slots are hidden as
; for the phi. An index known only at run time (@o) is an array's: its
; field stays the program's.
%k.Frame = type { ptr, ptr, [40 x i8], i64, i64, i64 }
%l.Frame = type { ptr, ptr, [40 x i8], i64, i64, i64 }
%m.Frame = type { ptr, ptr, [40 x i8], i64, i64, i64 }
declare void @k.resume(ptr)
declare void @l.resume(ptr)
declare void @m.resume(ptr)
declare void @n.resume(ptr)
declare void @o.resume(ptr)
%n.Frame = type { ptr, ptr, [40 x i8], i64, i64, i64 }
%o.Frame = type { ptr, ptr, [40 x i8], [2 x i64] }

; CHECK-LABEL: define void @k(
; CHECK:         %reload = load i64, ptr %a, align 8, !nosanitize
; CHECK:         %inner.v = load i64, ptr %inner, align 8, !nosanitize
; CHECK:         %outer.v = load i64, ptr %outer, align 8, !nosanitize
define void @k(i1 %c, i1 %d) sanitize_thread {
entry:
  %frame = alloca %k.Frame, align 16
  store ptr @k.resume, ptr %frame, align 8
  %a = getelementptr inbounds i8, ptr %frame, i64 56
  %b = getelementptr inbounds i8, ptr %frame, i64 64
  %t = getelementptr inbounds i8, ptr %frame, i64 72
  %reload = load i64, ptr %a, align 8
  br i1 %c, label %pad1, label %pad2

pad1:
  br i1 %d, label %pads, label %last

pad2:
  br label %pads

pads:
  %inner = phi ptr [ %a, %pad1 ], [ %b, %pad2 ]
  %inner.v = load i64, ptr %inner, align 8
  br label %last

last:
  %outer = phi ptr [ %inner, %pads ], [ %t, %pad1 ]
  %outer.v = load i64, ptr %outer, align 8
  ret void
}

; CHECK-LABEL: define void @l(
; CHECK:         %v = load i64, ptr %p, align 8, !nosanitize
define void @l(i1 %c) sanitize_thread {
entry:
  %frame = alloca %l.Frame, align 16
  store ptr @l.resume, ptr %frame, align 8
  %a = getelementptr inbounds i8, ptr %frame, i64 56
  %b = getelementptr inbounds i8, ptr %frame, i64 64
  br label %loop

loop:
  %p = phi ptr [ %a, %entry ], [ %q, %loop ]
  %v = load i64, ptr %p, align 8
  %q = select i1 %c, ptr %p, ptr %b
  br i1 %c, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: define void @m(
; CHECK:         %reload = load i64, ptr %a, align 8{{$}}
; CHECK:         %outer.v = load i64, ptr %outer, align 8{{$}}
define void @m(i1 %c, ptr %other) sanitize_thread {
entry:
  %frame = alloca %m.Frame, align 16
  store ptr @m.resume, ptr %frame, align 8
  %a = getelementptr inbounds i8, ptr %frame, i64 56
  %b = getelementptr inbounds i8, ptr %frame, i64 64
  %reload = load i64, ptr %a, align 8
  br i1 %c, label %pad, label %last

pad:
  %inner = phi ptr [ %other, %entry ]
  br label %last

last:
  %outer = phi ptr [ %inner, %pad ], [ %a, %entry ]
  %outer.v = load i64, ptr %outer, align 8
  ret void
}

; CHECK-LABEL: define void @n(
; CHECK:         %reload = load i64, ptr %a, align 8, !nosanitize
; CHECK:         %v = load i64, ptr %p, align 8, !nosanitize
define void @n(i1 %c) sanitize_thread {
entry:
  %frame = alloca %n.Frame, align 16
  store ptr @n.resume, ptr %frame, align 8
  %a = getelementptr inbounds i8, ptr %frame, i64 56
  %reload = load i64, ptr %a, align 8
  br i1 %c, label %left, label %join

left:
  br label %join

join:
  %off = phi i64 [ 56, %entry ], [ 64, %left ]
  %p = getelementptr inbounds i8, ptr %frame, i64 %off
  %v = load i64, ptr %p, align 8
  ret void
}

; CHECK-LABEL: define void @o(
; CHECK:         %first = load i64, ptr %arr, align 8{{$}}
; CHECK:         %v = load i64, ptr %p, align 8{{$}}
define void @o(i64 %i) sanitize_thread {
entry:
  %frame = alloca %o.Frame, align 16
  store ptr @o.resume, ptr %frame, align 8
  %arr = getelementptr inbounds i8, ptr %frame, i64 56
  %first = load i64, ptr %arr, align 8
  %p = getelementptr inbounds i64, ptr %arr, i64 %i
  %v = load i64, ptr %p, align 8
  ret void
}
