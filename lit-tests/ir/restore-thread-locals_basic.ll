; Verify that weft-restore-thread-locals turns each opaque thread-local
; address call back into llvm.threadlocal.address where it stands, and
; starts a new block before one that follows a call in its block (which may
; have returned on another thread), but not after an intrinsic: on x86-64,
; whose thread pointer each access loads (restore-thread-locals_aarch64.ll
; has the other targets).
;
; RUN: %opt-weft -passes=weft-restore-thread-locals -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@tls = thread_local global i32 0

declare ptr @__weft_threadlocal_address.p0(ptr) memory(inaccessiblemem: read)
declare void @may_migrate()
declare void @llvm.donothing()

; CHECK-NOT: @__weft_threadlocal_address
; CHECK-LABEL: define i32 @f()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = call ptr @llvm.threadlocal.address.p0(ptr @tls)
; CHECK-NEXT:    %x = load i32, ptr %a
; CHECK-NEXT:    call void @llvm.donothing()
; CHECK-NEXT:    %b = call ptr @llvm.threadlocal.address.p0(ptr @tls)
; CHECK-NEXT:    %y = load i32, ptr %b
; CHECK-NEXT:    call void @may_migrate()
; CHECK-NEXT:    br label %[[SPLIT:.+]]
; CHECK-EMPTY:
; CHECK-NEXT:  [[SPLIT]]:
; CHECK-NEXT:    %c = call ptr @llvm.threadlocal.address.p0(ptr @tls)
; CHECK-NEXT:    %z = load i32, ptr %c
define i32 @f() {
entry:
  %a = call ptr @__weft_threadlocal_address.p0(ptr @tls)
  %x = load i32, ptr %a
  call void @llvm.donothing()
  %b = call ptr @__weft_threadlocal_address.p0(ptr @tls)
  %y = load i32, ptr %b
  call void @may_migrate()
  %c = call ptr @__weft_threadlocal_address.p0(ptr @tls)
  %z = load i32, ptr %c
  %s = add i32 %x, %y
  %t = add i32 %s, %z
  ret i32 %t
}
