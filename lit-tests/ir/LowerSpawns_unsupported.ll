; Verify that the pass still rejects, as a backstop, the constructs the front
; end reports at their statements (UnsupportedConstructs.cpp) when it is
; given IR that did not come through the front end: a setjmp call, inline
; assembly that pushes, a computed goto, in a function that spawns. Without
; debug info the error names the function.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/setjmp.ll 2>&1 | FileCheck --check-prefix=SETJMP %s
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/asm.ll 2>&1 | FileCheck --check-prefix=ASM %s
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/goto.ll 2>&1 | FileCheck --check-prefix=GOTO %s

; SETJMP: error: {{.*}}in function with_setjmp {{.*}}weft: _setjmp() cannot be called in a spawning function
; ASM: error: {{.*}}in function with_asm {{.*}}weft: inline assembly that changes the stack pointer cannot appear in a spawning function
; GOTO: error: {{.*}}in function with_goto {{.*}}weft: computed goto cannot appear in a spawning function

;--- setjmp.ll
declare ptr @__weft_spawn_marker(ptr)
declare void @__weft_sync_marker()
declare i64 @f(i64)
declare i32 @_setjmp(ptr)

define i64 @with_setjmp(i64 %n, ptr %buf) {
  %x.addr = alloca i64
  %m = call ptr @__weft_spawn_marker(ptr @f)
  %x = call i64 %m(i64 %n)
  store i64 %x, ptr %x.addr
  %r = call i32 @_setjmp(ptr %buf)
  call void @__weft_sync_marker()
  %v = load i64, ptr %x.addr
  ret i64 %v
}

;--- asm.ll
declare ptr @__weft_spawn_marker(ptr)
declare void @__weft_sync_marker()
declare i64 @f(i64)

define i64 @with_asm(i64 %n) {
  %x.addr = alloca i64
  %m = call ptr @__weft_spawn_marker(ptr @f)
  %x = call i64 %m(i64 %n)
  store i64 %x, ptr %x.addr
  call void asm sideeffect "pushq %rax\0A\09popq %rax", "~{memory}"()
  call void @__weft_sync_marker()
  %v = load i64, ptr %x.addr
  ret i64 %v
}

;--- goto.ll
declare ptr @__weft_spawn_marker(ptr)
declare void @__weft_sync_marker()
declare i64 @f(i64)

define i64 @with_goto(i64 %n, ptr %target) {
entry:
  %x.addr = alloca i64
  %m = call ptr @__weft_spawn_marker(ptr @f)
  %x = call i64 %m(i64 %n)
  store i64 %x, ptr %x.addr
  indirectbr ptr %target, [label %a, label %b]
a:
  br label %b
b:
  call void @__weft_sync_marker()
  %v = load i64, ptr %x.addr
  ret i64 %v
}
