; Verify that weft-race-allocators wraps each function that the front end
; marked as a library allocator's entry point (an annotation
; "weft-race-allocator:..." in @llvm.global.annotations) in the race
; detector's model of an allocator: checking off from entry to every exit,
; an exception's included (a cleanup turns it back on and resumes); a
; block handed out announced on return with its size, from an argument or
; from a size_t field of the allocator (read !nosanitize); a block given
; back announced at entry, before checking goes off. It takes its
; annotations out and leaves the others, and leaves alone a function whose
; shape does not fit its annotation.
;
; RUN: %opt-weft -passes=weft-race-allocators -S %s | FileCheck %s

@.alloc = private unnamed_addr constant [38 x i8] c"weft-race-allocator:alloc:size=arg0+8\00", section "llvm.metadata"
@.free = private unnamed_addr constant [44 x i8] c"weft-race-allocator:free:ptr=arg1:size=arg2\00", section "llvm.metadata"
@.bad = private unnamed_addr constant [36 x i8] c"weft-race-allocator:alloc:size=arg1\00", section "llvm.metadata"
@.other = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@.file = private unnamed_addr constant [7 x i8] c"pool.h\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @alloc, ptr @.alloc, ptr @.file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @deallocate, ptr @.free, ptr @.file, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @no_size, ptr @.bad, ptr @.file, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @kept, ptr @.other, ptr @.file, i32 4, ptr null }], section "llvm.metadata"

; Only the annotation that is not an allocator's stays.
; CHECK: @llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @kept, ptr @.other, ptr @.file, i32 4, ptr null }], section "llvm.metadata"
; CHECK-NOT: weft-race-allocator

declare ptr @pop(ptr)
declare void @push(ptr, ptr, i64) nounwind
declare i32 @__gxx_personality_v0(...)

; alloc(this): the size is the field at byte 8 of *this; pop may throw.
; CHECK-LABEL: define ptr @alloc(ptr %this) personality ptr @__gxx_personality_v0 {
; CHECK-NEXT:    call void @__cilksan_disable_checking()
; CHECK-NEXT:    %[[R:.*]] = invoke ptr @pop(ptr %this)
; CHECK-NEXT:            to label %[[GO:.*]] unwind label %[[CLEANUP:.*]]
; CHECK:       [[GO]]:
; CHECK-NEXT:    %[[FIELD:.*]] = getelementptr inbounds i8, ptr %this, i64 8
; CHECK-NEXT:    %[[SIZE:.*]] = load i64, ptr %[[FIELD]], align {{[0-9]+}}, !nosanitize
; CHECK-NEXT:    call void @__cilksan_enable_checking()
; CHECK-NEXT:    call void @__weft_race_alloc(ptr %[[R]], i64 %[[SIZE]])
; CHECK-NEXT:    ret ptr %[[R]]
; CHECK:       [[CLEANUP]]:
; CHECK-NEXT:    %{{.*}} = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    call void @__cilksan_enable_checking()
; CHECK-NEXT:    resume
define ptr @alloc(ptr %this) personality ptr @__gxx_personality_v0 {
  %r = call ptr @pop(ptr %this)
  ret ptr %r
}

; deallocate(this, p, n): the free is announced first, checking on.
; CHECK-LABEL: define void @deallocate(ptr %this, ptr %p, i64 %n)
; CHECK-NEXT:    call void @__weft_race_free(ptr %p, i64 %n)
; CHECK-NEXT:    call void @__cilksan_disable_checking()
; CHECK-NEXT:    call void @push(ptr %this, ptr %p, i64 %n)
; CHECK-NEXT:    call void @__cilksan_enable_checking()
; CHECK-NEXT:    ret void
define void @deallocate(ptr %this, ptr %p, i64 %n) nounwind {
  call void @push(ptr %this, ptr %p, i64 %n)
  ret void
}

; Annotated with a size argument it does not have: untouched.
; CHECK-LABEL: define ptr @no_size(ptr %this)
; CHECK-NEXT:    %r = call ptr @pop(ptr %this)
; CHECK-NEXT:    ret ptr %r
define ptr @no_size(ptr %this) {
  %r = call ptr @pop(ptr %this)
  ret ptr %r
}

; CHECK-LABEL: define void @kept()
; CHECK-NEXT:    ret void
define void @kept() {
  ret void
}

; CHECK: declare void @__cilksan_disable_checking() #[[NOUNWIND:[0-9]+]]
