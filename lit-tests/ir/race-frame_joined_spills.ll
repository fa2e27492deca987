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
