; Verify that the pass still rejects, as a backstop, the constructs the front
; end reports at their statements (UnsupportedConstructs.cpp) when it is
; given IR that did not come through the front end: a setjmp call, inline
; assembly that pushes, a computed goto, in a function that spawns. Also
; that in opt, where no Clang reports at the marker's source location, a
; spawned result passed on to another call is reported naming the function,
; and so is a landing pad that would use a spawned statement's temporary
; after its wait for the children (LandingPadSyncs.cpp), where a slow
; clone's temporary may be gone.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/setjmp.ll 2>&1 | FileCheck --check-prefix=SETJMP %s
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/asm.ll 2>&1 | FileCheck --check-prefix=ASM %s
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/goto.ll 2>&1 | FileCheck --check-prefix=GOTO %s
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/result.ll 2>&1 | FileCheck --check-prefix=RESULT %s
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/pad.ll 2>&1 | FileCheck --check-prefix=PAD %s

; SETJMP: error: {{.*}}in function with_setjmp {{.*}}weft: _setjmp() cannot be called in a spawning function
; ASM: error: {{.*}}in function with_asm {{.*}}weft: inline assembly that changes the stack pointer cannot appear in a spawning function
; GOTO: error: {{.*}}in function with_goto {{.*}}weft: computed goto cannot appear in a spawning function
; RESULT: error: {{.*}}in function passed_on {{.*}}weft: the result of a spawned call must be stored directly into a variable or an lvalue
; PAD: error: {{.*}}in function odd_cleanup {{.*}}weft: internal error: a landing pad uses a spawned statement's temporary after it must wait for the function's children

;--- setjmp.ll
declare ptr @__weft_spawn_marker(ptr, i32)
declare void @__weft_sync_marker()
declare i64 @f(i64)
declare i32 @_setjmp(ptr)

define i64 @with_setjmp(i64 %n, ptr %buf) {
  %x.addr = alloca i64
  %m = call ptr @__weft_spawn_marker(ptr @f, i32 1234)
  %x = call i64 %m(i64 %n)
  store i64 %x, ptr %x.addr
  %r = call i32 @_setjmp(ptr %buf)
  call void @__weft_sync_marker()
  %v = load i64, ptr %x.addr
  ret i64 %v
}

;--- asm.ll
declare ptr @__weft_spawn_marker(ptr, i32)
declare void @__weft_sync_marker()
declare i64 @f(i64)

define i64 @with_asm(i64 %n) {
  %x.addr = alloca i64
  %m = call ptr @__weft_spawn_marker(ptr @f, i32 1234)
  %x = call i64 %m(i64 %n)
  store i64 %x, ptr %x.addr
  call void asm sideeffect "pushq %rax\0A\09popq %rax", "~{memory}"()
  call void @__weft_sync_marker()
  %v = load i64, ptr %x.addr
  ret i64 %v
}

;--- goto.ll
declare ptr @__weft_spawn_marker(ptr, i32)
declare void @__weft_sync_marker()
declare i64 @f(i64)

define i64 @with_goto(i64 %n, ptr %target) {
entry:
  %x.addr = alloca i64
  %m = call ptr @__weft_spawn_marker(ptr @f, i32 1234)
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

;--- result.ll
declare ptr @__weft_spawn_marker(ptr, i32)
declare void @__weft_sync_marker()
declare i64 @f(i64)
declare i64 @g(i64)

define i64 @passed_on(i64 %n) {
  %m = call ptr @__weft_spawn_marker(ptr @f, i32 1234)
  %x = call i64 %m(i64 %n)
  %y = call i64 @g(i64 %x)
  call void @__weft_sync_marker()
  ret i64 %y
}

;--- pad.ll
declare ptr @__weft_spawn_marker(ptr, i32)
declare void @__weft_spawn_end() nounwind
declare void @take(ptr)
declare void @make(ptr) nounwind
declare void @destroy(ptr) nounwind
declare void @destroy_with(ptr, ptr) nounwind
declare i32 @__gxx_personality_v0(...)

; The temporary's cleanup on the way out also takes another pointer: not
; one of the statement's cleanups, so the wait would come before it.
define void @odd_cleanup(ptr %other, i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %tmp = alloca i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %ok ]
  %m = call ptr @__weft_spawn_marker(ptr @take, i32 1234)
  call void @llvm.lifetime.start.p0(i64 8, ptr %tmp)
  call void @make(ptr %tmp)
  invoke void %m(ptr %tmp) to label %ok unwind label %lpad
ok:
  call void @destroy(ptr %tmp)
  call void @llvm.lifetime.end.p0(i64 8, ptr %tmp)
  call void @__weft_spawn_end()
  %next = add i64 %i, 1
  %more = icmp slt i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @destroy_with(ptr %tmp, ptr %other)
  resume { ptr, i32 } %lp
}
