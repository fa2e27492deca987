; Verify that on AArch64, whose thread pointer is a register read that the
; machine passes reuse across calls, weft-restore-thread-locals computes a
; thread-local address that may follow a call (which may have returned on
; another thread) by a call of a function of its own, and keeps the
; intrinsic only at the top of the entry block; and that the code keeps no
; thread pointer across the call: each address after it is computed anew.
;
; RUN: %opt-weft -passes=weft-restore-thread-locals -S %s | FileCheck %s
; RUN: %opt-weft -passes=weft-restore-thread-locals %s | llc -O2 | FileCheck --check-prefix=ASM %s

target triple = "aarch64-unknown-linux-gnu"

@tls = thread_local global i32 0

declare ptr @__weft_threadlocal_address.p0(ptr) memory(inaccessiblemem: read)
declare void @may_migrate()

; CHECK-NOT: @__weft_threadlocal_address
; CHECK-LABEL: define i32 @f(i1 %c)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = call ptr @llvm.threadlocal.address.p0(ptr @tls)
; CHECK-NEXT:    %x = load i32, ptr %a
; CHECK-NEXT:    call void @may_migrate()
; CHECK-NEXT:    %b = call ptr @__weft_tls.tls()
; CHECK:       then:
; CHECK-NEXT:    %d = call ptr @__weft_tls.tls()
; CHECK:       define internal ptr @__weft_tls.tls() #[[ATTRS:[0-9]+]]
; CHECK-NEXT:    %1 = call ptr @llvm.threadlocal.address.p0(ptr @tls)
; CHECK-NEXT:    ret ptr %1
; CHECK:       attributes #[[ATTRS]] = { noinline nounwind willreturn memory(inaccessiblemem: read) }

; ASM-LABEL: f:
; ASM:         mrs
; ASM:         bl may_migrate
; ASM-NOT:     mrs
; ASM:         bl __weft_tls.tls
; ASM-LABEL: __weft_tls.tls:
; ASM:         mrs
define i32 @f(i1 %c) {
entry:
  %a = call ptr @__weft_threadlocal_address.p0(ptr @tls)
  %x = load i32, ptr %a
  call void @may_migrate()
  %b = call ptr @__weft_threadlocal_address.p0(ptr @tls)
  store i32 %x, ptr %b
  br i1 %c, label %then, label %done

then:
  %d = call ptr @__weft_threadlocal_address.p0(ptr @tls)
  store i32 0, ptr %d
  br label %done

done:
  ret i32 %x
}
