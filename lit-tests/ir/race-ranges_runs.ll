; Verify that weft-race-ranges, in race mode, checks the loads (stores) of a
; straight run of code that share a base pointer and a source location and
; touch one contiguous range with one call of the detector, of exactly
; those bytes, the reads where the first of them was and the writes where
; the last was, and marks them !nosanitize so that ThreadSanitizer leaves
; them out; and that it leaves alone a lone access, a gap, another source
; location, a run that a call or an atomic ends, a volatile access, a stack
; slot whose address does not escape, an access already marked, and a
; function ThreadSanitizer does not instrument; but that it checks a lone
; access whose size ThreadSanitizer has no call for.
;
; RUN: %opt-weft -passes=weft-race-ranges -S %s | FileCheck %s

declare void @opaque()
declare void @escape(ptr)

; An unrolled, vectorized row update: 32 bytes read, 32 bytes written.
; CHECK-LABEL: define void @row(
; CHECK-NEXT:    %a1 = getelementptr i8, ptr %row, i64 16
; CHECK-NEXT:    call void @__weft_race_read_range(ptr %row, i64 32), !dbg ![[LOC:[0-9]+]]
; CHECK-NEXT:    %v0 = load <2 x double>, ptr %row, align 8, !dbg ![[LOC]], !nosanitize
; CHECK-NEXT:    %v1 = load <2 x double>, ptr %a1, align 8, !dbg ![[LOC]], !nosanitize
; CHECK-NEXT:    store <2 x double> %v0, ptr %row, align 8, !dbg ![[LOC]], !nosanitize
; CHECK-NEXT:    call void @__weft_race_write_range(ptr %row, i64 32), !dbg ![[LOC]]
; CHECK-NEXT:    store <2 x double> %v1, ptr %a1, align 8, !dbg ![[LOC]], !nosanitize
; CHECK-NEXT:    ret void
define void @row(ptr %row) sanitize_thread !dbg !5 {
  %a1 = getelementptr i8, ptr %row, i64 16
  %v0 = load <2 x double>, ptr %row, align 8, !dbg !8
  %v1 = load <2 x double>, ptr %a1, align 8, !dbg !8
  store <2 x double> %v0, ptr %row, align 8, !dbg !8
  store <2 x double> %v1, ptr %a1, align 8, !dbg !8
  ret void
}

; Overlapping and out-of-order accesses make one range from the lowest
; byte to the highest; a gap starts another stretch, and a stretch of one
; access stays TSan's.
; CHECK-LABEL: define i64 @stretches(
; CHECK:         call void @__weft_race_read_range(ptr %p, i64 12)
; CHECK-NEXT:    %x8 = load i32, ptr %p8, align 4, !nosanitize
; CHECK-NEXT:    %x0 = load i64, ptr %p, align 4, !nosanitize
; CHECK-NEXT:    %x4 = load i32, ptr %p4, align 4, !nosanitize
; CHECK-NEXT:    %x32 = load i64, ptr %p32, align 4{{$}}
; CHECK-NOT:     __weft_race
; CHECK:         ret i64
define i64 @stretches(ptr %p) sanitize_thread {
  %p4 = getelementptr i8, ptr %p, i64 4
  %p8 = getelementptr i8, ptr %p, i64 8
  %p32 = getelementptr i8, ptr %p, i64 32
  %x8 = load i32, ptr %p8, align 4
  %x0 = load i64, ptr %p, align 4
  %x4 = load i32, ptr %p4, align 4
  %x32 = load i64, ptr %p32, align 4
  %w8 = zext i32 %x8 to i64
  %w4 = zext i32 %x4 to i64
  %s1 = add i64 %x0, %w8
  %s2 = add i64 %s1, %w4
  %s3 = add i64 %s2, %x32
  ret i64 %s3
}

; Two source locations, two base pointers, a call, an atomic store and a
; volatile load: no two accesses left that one range check may cover.
; CHECK-LABEL: define void @apart(
; CHECK-NOT:     __weft_race
; CHECK-NOT:     !nosanitize
; CHECK:         ret void
define void @apart(ptr %p, ptr %q) sanitize_thread !dbg !9 {
  %p8 = getelementptr i8, ptr %p, i64 8
  %q8 = getelementptr i8, ptr %q, i64 8
  store i64 1, ptr %p, align 8, !dbg !10
  store i64 2, ptr %p8, align 8, !dbg !11
  store i64 3, ptr %q, align 8, !dbg !10
  call void @opaque(), !dbg !10
  store i64 4, ptr %q8, align 8, !dbg !10
  store atomic i64 5, ptr %p seq_cst, align 8, !dbg !10
  store i64 6, ptr %p8, align 8, !dbg !10
  %v = load volatile i64, ptr %p, align 8, !dbg !10
  ret void
}

; A slot whose address does not escape is not instrumented by TSan, and
; stays so; one whose address escapes is the program's shared memory.
; Accesses already marked (a frame's own fields) stay marked and alone.
; CHECK-LABEL: define void @slots(
; CHECK:         store i64 1, ptr %private, align 8{{$}}
; CHECK-NEXT:    store i64 2, ptr %private8, align 8{{$}}
; CHECK-NEXT:    store i64 3, ptr %shared, align 8, !nosanitize
; CHECK-NEXT:    call void @__weft_race_write_range(ptr %shared, i64 16)
; CHECK-NEXT:    store i64 4, ptr %shared8, align 8, !nosanitize
; CHECK-NEXT:    store i64 5, ptr %frame, align 8, !nosanitize
; CHECK-NEXT:    store i64 6, ptr %frame8, align 8, !nosanitize
; CHECK-NOT:     __weft_race
; CHECK:         ret void
define void @slots(ptr %frame) sanitize_thread {
  %private = alloca [2 x i64], align 8
  %shared = alloca [2 x i64], align 8
  call void @escape(ptr %shared)
  %private8 = getelementptr i8, ptr %private, i64 8
  %shared8 = getelementptr i8, ptr %shared, i64 8
  %frame8 = getelementptr i8, ptr %frame, i64 8
  store i64 1, ptr %private, align 8
  store i64 2, ptr %private8, align 8
  store i64 3, ptr %shared, align 8
  store i64 4, ptr %shared8, align 8
  store i64 5, ptr %frame, align 8, !nosanitize !4
  store i64 6, ptr %frame8, align 8, !nosanitize !4
  ret void
}

; A lone access of a size ThreadSanitizer has no call for (an AVX
; vector's 32 bytes) is a range of its own; a lone 16 bytes stays TSan's.
; CHECK-LABEL: define void @lone_avx_vector(
; CHECK-NEXT:    call void @__weft_race_write_range(ptr %p, i64 32)
; CHECK-NEXT:    store <8 x i32> %v, ptr %p, align 4, !nosanitize
; CHECK-NEXT:    store <4 x i32> %w, ptr %q, align 4{{$}}
; CHECK-NEXT:    ret void
define void @lone_avx_vector(ptr %p, ptr %q, <8 x i32> %v, <4 x i32> %w) sanitize_thread {
  store <8 x i32> %v, ptr %p, align 4
  store <4 x i32> %w, ptr %q, align 4
  ret void
}

; CHECK-LABEL: define void @not_instrumented(
; CHECK-NOT:     __weft_race
; CHECK:         ret void
define void @not_instrumented(ptr %p) {
  %p8 = getelementptr i8, ptr %p, i64 8
  store i64 1, ptr %p, align 8
  store i64 2, ptr %p8, align 8
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "rows.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{}
!5 = distinct !DISubprogram(name: "row", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 3, column: 12, scope: !5)
!9 = distinct !DISubprogram(name: "apart", scope: !1, file: !1, line: 10, type: !6, unit: !0)
!10 = !DILocation(line: 11, column: 5, scope: !9)
!11 = !DILocation(line: 12, column: 5, scope: !9)
