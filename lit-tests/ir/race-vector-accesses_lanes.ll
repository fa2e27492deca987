; Verify that weft-race-vector-accesses, in race mode, checks each lane of
; a gather, scatter, masked load or masked store that its mask turns on,
; before the access and with its source location, and marks the access
; !nosanitize: behind a branch on the lane's mask bit (an x86 mask's sign
; bit, a generic mask's i1) when the mask is not a constant; without one,
; and only for the lanes on, when it is; as one range when a masked load
; or store of consecutive elements has all lanes on; as one range of the
; elements it takes for an expanding load. A function ThreadSanitizer does
; not instrument is left alone.
;
; RUN: %opt-weft -passes=weft-race-vector-accesses -S %s | FileCheck %s

; An AVX2 gather: lane i reads base + sext(index[i]) * 4 when the sign bit
; of mask[i] is set.
; CHECK-LABEL: define <8 x i32> @gather(
; CHECK:         %[[M0:[0-9]+]] = extractelement <8 x i32> %mask, i64 0
; CHECK-NEXT:    %[[ON0:[0-9]+]] = icmp slt i32 %[[M0]], 0
; CHECK-NEXT:    br i1 %[[ON0]], label %[[THEN0:[0-9]+]], label %[[NEXT0:[0-9]+]]
; CHECK:       [[THEN0]]:
; CHECK-NEXT:    %[[I0:[0-9]+]] = extractelement <8 x i32> %index, i64 0
; CHECK-NEXT:    %[[X0:[0-9]+]] = sext i32 %[[I0]] to i64
; CHECK-NEXT:    %[[O0:[0-9]+]] = mul i64 %[[X0]], 4
; CHECK-NEXT:    %[[A0:[0-9]+]] = getelementptr i8, ptr %base, i64 %[[O0]]
; CHECK-NEXT:    call void @__weft_race_read_range(ptr %[[A0]], i64 4), !dbg ![[GLOC:[0-9]+]]
; CHECK-NEXT:    br label %[[NEXT0]]
; CHECK-COUNT-7: call void @__weft_race_read_range(ptr %{{[0-9]+}}, i64 4), !dbg ![[GLOC]]
; CHECK:         %v = call <8 x i32> @llvm.x86.avx2.gather.d.d.256({{.*}}), !dbg ![[GLOC]], !nosanitize
define <8 x i32> @gather(ptr %base, <8 x i32> %index, <8 x i32> %mask) sanitize_thread !dbg !5 {
  %v = call <8 x i32> @llvm.x86.avx2.gather.d.d.256(<8 x i32> zeroinitializer, ptr %base, <8 x i32> %index, <8 x i32> %mask, i8 4), !dbg !8
  ret <8 x i32> %v
}

; 64-bit indices into 32-bit elements: two lanes, not four.
; CHECK-LABEL: define <4 x i32> @gather_half(
; CHECK-COUNT-2: call void @__weft_race_read_range(ptr %{{[0-9]+}}, i64 4)
; CHECK-NOT:     __weft_race
; CHECK:         ret <4 x i32>
define <4 x i32> @gather_half(ptr %base, <2 x i64> %index, <4 x i32> %mask) sanitize_thread {
  %v = call <4 x i32> @llvm.x86.avx2.gather.q.d(<4 x i32> zeroinitializer, ptr %base, <2 x i64> %index, <4 x i32> %mask, i8 4)
  ret <4 x i32> %v
}

; A constant mask with lane 2 off: lanes 0, 1 and 3, no branch.
; CHECK-LABEL: define void @store_some(
; CHECK-NEXT:    call void @__weft_race_write_range(ptr %p, i64 4)
; CHECK-NEXT:    %[[P1:[0-9]+]] = getelementptr inbounds i8, ptr %p, i64 4
; CHECK-NEXT:    call void @__weft_race_write_range(ptr %[[P1]], i64 4)
; CHECK-NEXT:    %[[P3:[0-9]+]] = getelementptr inbounds i8, ptr %p, i64 12
; CHECK-NEXT:    call void @__weft_race_write_range(ptr %[[P3]], i64 4)
; CHECK-NEXT:    call void @llvm.masked.store.v4i32.p0({{.*}}), !nosanitize
; CHECK-NEXT:    ret void
define void @store_some(ptr %p, <4 x i32> %v) sanitize_thread {
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr %p, i32 4, <4 x i1> <i1 true, i1 true, i1 false, i1 true>)
  ret void
}

; An x86 masked load whose constant mask is all on: one range.
; CHECK-LABEL: define <8 x float> @load_all(
; CHECK-NEXT:    call void @__weft_race_read_range(ptr %p, i64 32)
; CHECK-NEXT:    %v = call <8 x float> @llvm.x86.avx.maskload.ps.256({{.*}}), !nosanitize
define <8 x float> @load_all(ptr %p) sanitize_thread {
  %v = call <8 x float> @llvm.x86.avx.maskload.ps.256(ptr %p, <8 x i32> <i32 -1, i32 -1, i32 -1, i32 -1, i32 -1, i32 -1, i32 -1, i32 -1>)
  ret <8 x float> %v
}

; The vectorizer's masked store: each lane behind its i1.
; CHECK-LABEL: define void @store_masked(
; CHECK:         %[[B0:[0-9]+]] = extractelement <4 x i1> %mask, i64 0
; CHECK-NEXT:    br i1 %[[B0]]
; CHECK-COUNT-4: call void @__weft_race_write_range(ptr %{{[0-9a-z]+}}, i64 8)
; CHECK:         call void @llvm.masked.store.v4f64.p0({{.*}}), !nosanitize
define void @store_masked(ptr %p, <4 x double> %v, <4 x i1> %mask) sanitize_thread {
  call void @llvm.masked.store.v4f64.p0(<4 x double> %v, ptr %p, i32 8, <4 x i1> %mask)
  ret void
}

; A generic gather: lane i reads the i-th pointer.
; CHECK-LABEL: define <2 x i64> @gather_pointers(
; CHECK:         br i1
; CHECK:         %[[Q0:[0-9]+]] = extractelement <2 x ptr> %ptrs, i64 0
; CHECK-NEXT:    call void @__weft_race_read_range(ptr %[[Q0]], i64 8)
; CHECK:         %[[Q1:[0-9]+]] = extractelement <2 x ptr> %ptrs, i64 1
; CHECK-NEXT:    call void @__weft_race_read_range(ptr %[[Q1]], i64 8)
define <2 x i64> @gather_pointers(<2 x ptr> %ptrs, <2 x i1> %mask) sanitize_thread {
  %v = call <2 x i64> @llvm.masked.gather.v2i64.v2p0(<2 x ptr> %ptrs, i32 8, <2 x i1> %mask, <2 x i64> zeroinitializer)
  ret <2 x i64> %v
}

; An AVX-512 scatter writes lane i at base + sext(index[i]) * 8.
; CHECK-LABEL: define void @scatter(
; CHECK:         mul i64 %{{[0-9]+}}, 8
; CHECK-COUNT-8: call void @__weft_race_write_range(ptr %{{[0-9]+}}, i64 8)
; CHECK:         call void @llvm.x86.avx512.mask.scatter.dpd.512({{.*}}), !nosanitize
define void @scatter(ptr %base, <8 x i1> %mask, <8 x i32> %index, <8 x double> %v) sanitize_thread {
  call void @llvm.x86.avx512.mask.scatter.dpd.512(ptr %base, <8 x i1> %mask, <8 x i32> %index, <8 x double> %v, i32 8)
  ret void
}

; An expanding load reads as many elements as its mask has lanes on.
; CHECK-LABEL: define <8 x float> @expand(
; CHECK-NEXT:    %[[BITS:[0-9]+]] = bitcast <8 x i1> %mask to i8
; CHECK-NEXT:    %[[ON:[0-9]+]] = call i8 @llvm.ctpop.i8(i8 %[[BITS]])
; CHECK-NEXT:    %[[N:[0-9]+]] = zext i8 %[[ON]] to i64
; CHECK-NEXT:    %[[BYTES:[0-9]+]] = mul i64 %[[N]], 4
; CHECK-NEXT:    call void @__weft_race_read_range(ptr %p, i64 %[[BYTES]])
define <8 x float> @expand(ptr %p, <8 x i1> %mask) sanitize_thread {
  %v = call <8 x float> @llvm.masked.expandload.v8f32(ptr %p, <8 x i1> %mask, <8 x float> zeroinitializer)
  ret <8 x float> %v
}

; CHECK-LABEL: define void @not_instrumented(
; CHECK-NOT:     __weft_race
; CHECK:         ret void
define void @not_instrumented(ptr %p, <8 x i32> %mask, <8 x i32> %v) {
  call void @llvm.x86.avx2.maskstore.d.256(ptr %p, <8 x i32> %mask, <8 x i32> %v)
  ret void
}

declare <8 x i32> @llvm.x86.avx2.gather.d.d.256(<8 x i32>, ptr, <8 x i32>, <8 x i32>, i8)
declare <4 x i32> @llvm.x86.avx2.gather.q.d(<4 x i32>, ptr, <2 x i64>, <4 x i32>, i8)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, i32, <4 x i1>)
declare <8 x float> @llvm.x86.avx.maskload.ps.256(ptr, <8 x i32>)
declare <2 x i64> @llvm.masked.gather.v2i64.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x i64>)
declare void @llvm.x86.avx512.mask.scatter.dpd.512(ptr, <8 x i1>, <8 x i32>, <8 x double>, i32)
declare <8 x float> @llvm.masked.expandload.v8f32(ptr, <8 x i1>, <8 x float>)
declare void @llvm.x86.avx2.maskstore.d.256(ptr, <8 x i32>, <8 x i32>)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "gathers.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "gather", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 3, column: 15, scope: !5)
