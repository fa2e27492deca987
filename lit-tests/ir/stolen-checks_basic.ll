; Verify that weft-stolen-checks decides each __weft_is_stolen call: false
; on a frame that the function allocates itself (a fast clone), with the
; slow path it guarded and what folds downstream gone, and a load of the
; frame's `stolen` flag (WEFT_FRAME_STOLEN_OFFSET) on a frame that comes in
; as an argument (a slow clone).
;
; RUN: %opt-weft -passes=weft-stolen-checks -S %s | FileCheck %s

declare ptr @__weft_frame_alloc(i64, i64)
declare i1 @__weft_is_stolen(ptr) memory(argmem: read)
declare i1 @__weft_sync_slow(ptr)
declare void @use(i1)

; The marker's declaration goes with its last call.
; CHECK-NOT: @__weft_is_stolen

; CHECK-LABEL: define void @fast(i1 %c)
; CHECK-NOT:     @__weft_is_stolen
; CHECK-NOT:     @__weft_sync_slow
; CHECK:         call void @use(i1 false)
; CHECK-NEXT:    ret void
define void @fast(i1 %c) {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 112, i64 16)
  %hdr = getelementptr inbounds i8, ptr %mem, i64 16
  %is.stolen = call i1 @__weft_is_stolen(ptr %hdr)
  br i1 %is.stolen, label %wait, label %done

wait:
  %w = call i1 @__weft_sync_slow(ptr %hdr)
  br label %done

done:
  %again = call i1 @__weft_is_stolen(ptr %hdr)
  %both = and i1 %again, %c
  call void @use(i1 %both)
  ret void
}

; CHECK-LABEL: define void @fast.resume(ptr %frame)
; CHECK:         %hdr = getelementptr inbounds i8, ptr %frame, i64 16
; CHECK-NEXT:    %stolen.addr = getelementptr inbounds i8, ptr %hdr, i32 20
; CHECK-NEXT:    %stolen = load i8, ptr %stolen.addr
; CHECK-NEXT:    %is.stolen = icmp ne i8 %stolen, 0
; CHECK-NEXT:    br i1 %is.stolen, label %wait, label %done
; CHECK:         call i1 @__weft_sync_slow(ptr %hdr)
define void @fast.resume(ptr %frame) {
entry:
  %hdr = getelementptr inbounds i8, ptr %frame, i64 16
  %is.stolen = call i1 @__weft_is_stolen(ptr %hdr)
  br i1 %is.stolen, label %wait, label %done

wait:
  %w = call i1 @__weft_sync_slow(ptr %hdr)
  br label %done

done:
  ret void
}
