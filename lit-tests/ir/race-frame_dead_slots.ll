; Verify that weft-race-frame, in race mode, follows each lifetime.end of a
; function that spawns with a call that makes the detector forget the slot
; (the alloca's size for a size of -1), and precedes each stackrestore of
; any instrumented function with a call that forgets the stack it frees;
; a function that does not spawn keeps its lifetime markers as they are,
; and a function ThreadSanitizer does not instrument is left alone.
;
; RUN: %opt-weft -passes=weft-race-frame -S %s | FileCheck %s

declare void @__weft_race_spawn(i32)
declare void @child(ptr)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare ptr @llvm.stacksave.p0()
declare void @llvm.stackrestore.p0(ptr)

; CHECK-LABEL: define void @spawns(
; CHECK:         call void @llvm.lifetime.end.p0({{(i64 16, )?}}ptr %tmp)
; CHECK-NEXT:    call void @__weft_race_dead_slot(ptr %tmp, i64 16)
; CHECK:         call void @llvm.lifetime.end.p0({{(i64 -1, )?}}ptr %whole)
; CHECK-NEXT:    call void @__weft_race_dead_slot(ptr %whole, i64 24)
define void @spawns(i32 %rec) sanitize_thread {
  %tmp = alloca [16 x i8]
  %whole = alloca [3 x i64]
  call void @llvm.lifetime.start.p0(i64 16, ptr %tmp)
  call void @__weft_race_spawn(i32 %rec)
  call void @child(ptr %tmp)
  call void @llvm.lifetime.end.p0(i64 16, ptr %tmp)
  call void @llvm.lifetime.start.p0(i64 -1, ptr %whole)
  call void @child(ptr %whole)
  call void @llvm.lifetime.end.p0(i64 -1, ptr %whole)
  ret void
}

; CHECK-LABEL: define void @restores(
; CHECK:         call void @child(ptr %vla)
; CHECK-NEXT:    %[[NOW:.+]] = call ptr @llvm.stacksave.p0()
; CHECK-NEXT:    %[[AT:.+]] = ptrtoint ptr %[[NOW]] to i64
; CHECK-NEXT:    %[[SAVED:.+]] = ptrtoint ptr %saved to i64
; CHECK-NEXT:    %[[BYTES:.+]] = sub i64 %[[SAVED]], %[[AT]]
; CHECK-NEXT:    call void @__weft_race_dead_slot(ptr %[[NOW]], i64 %[[BYTES]])
; CHECK-NEXT:    call void @llvm.stackrestore.p0(ptr %saved)
; CHECK-NOT:     __weft_race_dead_slot
; CHECK:         ret void
define void @restores(i64 %n) sanitize_thread {
  %tmp = alloca [8 x i8]
  call void @llvm.lifetime.start.p0(i64 8, ptr %tmp)
  call void @child(ptr %tmp)
  call void @llvm.lifetime.end.p0(i64 8, ptr %tmp)
  %saved = call ptr @llvm.stacksave.p0()
  %vla = alloca i32, i64 %n
  call void @child(ptr %vla)
  call void @llvm.stackrestore.p0(ptr %saved)
  ret void
}

; CHECK-LABEL: define void @not_instrumented(
; CHECK-NOT:     __weft_race_dead_slot
; CHECK:         ret void
define void @not_instrumented(i64 %n) {
  %saved = call ptr @llvm.stacksave.p0()
  %vla = alloca i32, i64 %n
  call void @child(ptr %vla)
  call void @llvm.stackrestore.p0(ptr %saved)
  ret void
}
