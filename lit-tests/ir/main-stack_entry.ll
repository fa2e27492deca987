; Verify that weft-main-stack has a program's main entered through the
; runtime's __weft_run_main (runtime/main_stack.h), whatever arguments main
; declares: the program's main is renamed and kept out of line, an entry of
; main's full signature calls it, and the new main calls the runtime when it
; is linked (a weak reference) and the entry directly otherwise. A main of
; another shape, a declaration, and a module without main are left alone.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt-weft -passes=weft-main-stack -S %t/none.ll | FileCheck --check-prefix=NONE %s
; RUN: %opt-weft -passes=weft-main-stack -S %t/two.ll | FileCheck --check-prefix=TWO %s
; RUN: %opt-weft -passes=weft-main-stack -S %t/three.ll | FileCheck --check-prefix=THREE %s
; RUN: %opt-weft -passes=weft-main-stack -S %t/void.ll | FileCheck --check-prefix=VOID %s
; RUN: %opt-weft -passes=weft-main-stack -S %t/declared.ll | FileCheck --check-prefix=DECLARED %s
; RUN: %opt-weft -passes=weft-main-stack,weft-main-stack -S %t/two.ll | FileCheck --check-prefix=TWICE %s

; NONE-LABEL: define i32 @__weft_main()
; NONE-SAME:  #[[USER:[0-9]+]]
; NONE:         ret i32 7
; NONE-LABEL: define internal i32 @__weft_main_entry(i32 %0, ptr %1, ptr %2)
; NONE-NEXT:    %4 = call i32 @__weft_main()
; NONE-NEXT:    ret i32 %4
; NONE-LABEL: define i32 @main(i32 %0, ptr %1, ptr %2)
; NONE-NEXT:    %4 = icmp ne ptr @__weft_run_main, null
; NONE-NEXT:    br i1 %4, label %deep, label %own
; NONE:       own:
; NONE-NEXT:    call i32 @__weft_main_entry(i32 %0, ptr %1, ptr %2)
; NONE:       deep:
; NONE-NEXT:    call i32 @__weft_run_main(ptr @__weft_main_entry, i32 %0, ptr %1, ptr %2)
; NONE:       declare extern_weak i32 @__weft_run_main(ptr, i32, ptr, ptr)
; NONE:       attributes #[[USER]] = { noinline

; TWO-LABEL: define i32 @__weft_main(i32 %argc, ptr %argv)
; TWO-LABEL: define internal i32 @__weft_main_entry(i32 %0, ptr %1, ptr %2)
; TWO-NEXT:    %4 = call i32 @__weft_main(i32 %0, ptr %1)
; TWO-LABEL: define i32 @main(i32 %0, ptr %1, ptr %2)

; THREE-LABEL: define i32 @__weft_main(i32 %argc, ptr %argv, ptr %envp)
; THREE-LABEL: define internal i32 @__weft_main_entry(i32 %0, ptr %1, ptr %2)
; THREE-NEXT:    %4 = call i32 @__weft_main(i32 %0, ptr %1, ptr %2)

; VOID-NOT:    __weft
; VOID:        define void @main()
; VOID-NOT:    __weft

; DECLARED-NOT: __weft

; TWICE:     define i32 @__weft_main(
; TWICE-NOT: define i32 @__weft_main(
; TWICE:     define i32 @main(
; TWICE-NOT: define {{.*}}@main(

;--- none.ll
define i32 @main() {
  ret i32 7
}

;--- two.ll
define i32 @main(i32 %argc, ptr %argv) {
  %v = load ptr, ptr %argv
  ret i32 %argc
}

;--- three.ll
define i32 @main(i32 %argc, ptr %argv, ptr %envp) {
  ret i32 %argc
}

;--- void.ll
define void @main() {
  ret void
}

;--- declared.ll
declare i32 @main(i32, ptr)

define i32 @caller() {
  %r = call i32 @main(i32 0, ptr null)
  ret i32 %r
}
