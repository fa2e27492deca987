; Verify that weft-merge-clones keeps one copy of identical functions that
; Weft made and whose addresses the program never sees: outlined loop bodies
; and spawn helpers ("weft-outlined"), and the slow clones of spawning
; functions ("weft-spawning" and coro-split's suffix), when the landing
; pads of both answer to the same personality. Every use of a copy names
; the one kept, and the copy goes. Slow clones that differ only in
; the helpers they call merge once the helpers have (a second round). The
; program's own functions are left alone, identical or not: an internal
; one without the attributes, a spawning function itself (its address may
; be compared), and a slow clone of another visibility.
;
; RUN: %opt-weft -passes=weft-merge-clones -S %s | FileCheck %s

declare void @__weft_parallel_for(i64, i64, ptr, ptr)
declare void @work(i64)

; The two loop bodies: the second goes, the callers pass the first.
; CHECK-LABEL: define internal void @a.weft.pfor(
; CHECK-NOT:   define internal void @b.weft.pfor(
define internal void @a.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) #0 {
  call void @work(i64 %lo)
  ret void
}
define internal void @b.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) #0 {
  call void @work(i64 %lo)
  ret void
}

; A body that differs stays.
; CHECK-LABEL: define internal void @c.weft.pfor(
define internal void @c.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) #0 {
  call void @work(i64 %hi)
  ret void
}

; Alike but for the personality their landing pads answer to: both stay.
; CHECK-LABEL: define internal void @d.weft.pfor(
; CHECK-LABEL: define internal void @e.weft.pfor(
define internal void @d.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) #0 personality ptr @__gcc_personality_v0 {
  invoke void @work(i64 %lo) to label %done unwind label %pad
done:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
define internal void @e.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) #0 personality ptr @__gxx_personality_v0 {
  invoke void @work(i64 %lo) to label %done unwind label %pad
done:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; Alike, one with a personality but no landing pad left: one stays.
; CHECK-LABEL: define internal void @f.weft.pfor(
; CHECK-NOT:   define internal void @g.weft.pfor(
define internal void @f.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) #0 {
  call void @work(i64 %hi)
  call void @work(i64 %lo)
  ret void
}
define internal void @g.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) #0 personality ptr @__gxx_personality_v0 {
  call void @work(i64 %hi)
  call void @work(i64 %lo)
  ret void
}
declare i32 @__gcc_personality_v0(...)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define void @loops(
; CHECK-NEXT:    call void @__weft_parallel_for(i64 %n, i64 0, ptr @d.weft.pfor, ptr null)
; CHECK-NEXT:    call void @__weft_parallel_for(i64 %n, i64 0, ptr @e.weft.pfor, ptr null)
; CHECK-NEXT:    call void @__weft_parallel_for(i64 %n, i64 0, ptr @f.weft.pfor, ptr null)
; CHECK-NEXT:    call void @__weft_parallel_for(i64 %n, i64 0, ptr @a.weft.pfor, ptr null)
; CHECK-NEXT:    call void @__weft_parallel_for(i64 %n, i64 0, ptr @a.weft.pfor, ptr null)
; CHECK-NEXT:    call void @__weft_parallel_for(i64 %n, i64 0, ptr @c.weft.pfor, ptr null)
define void @loops(i64 %n) {
  call void @__weft_parallel_for(i64 %n, i64 0, ptr @d.weft.pfor, ptr null)
  call void @__weft_parallel_for(i64 %n, i64 0, ptr @e.weft.pfor, ptr null)
  call void @__weft_parallel_for(i64 %n, i64 0, ptr @g.weft.pfor, ptr null)
  call void @__weft_parallel_for(i64 %n, i64 0, ptr @a.weft.pfor, ptr null)
  call void @__weft_parallel_for(i64 %n, i64 0, ptr @b.weft.pfor, ptr null)
  call void @__weft_parallel_for(i64 %n, i64 0, ptr @c.weft.pfor, ptr null)
  ret void
}

; Two helpers that are the same, and two slow clones that are the same but
; for the helper each calls: after the helpers merge, so do the clones.
; CHECK-LABEL: define internal void @f.weft.spawn(
; CHECK-NOT:   define internal void @g.weft.spawn(
define internal void @f.weft.spawn(i64 %x) #1 {
  call void @work(i64 %x)
  ret void
}
define internal void @g.weft.spawn(i64 %x) #1 {
  call void @work(i64 %x)
  ret void
}

; CHECK-LABEL: define internal fastcc void @f.resume(
; CHECK:         call void @f.weft.spawn(i64 %v)
; CHECK-NOT:   define internal fastcc void @g.resume(
define internal fastcc void @f.resume(ptr %frame) #2 {
  %v = load i64, ptr %frame
  call void @f.weft.spawn(i64 %v)
  ret void
}
define internal fastcc void @g.resume(ptr %frame) #2 {
  %v = load i64, ptr %frame
  call void @g.weft.spawn(i64 %v)
  ret void
}

; The program's own: an internal function without the attributes, a
; spawning function (plain name), a slow clone that is not local.
; CHECK-LABEL: define internal void @mine(
; CHECK-LABEL: define internal void @mine2(
define internal void @mine(i64 %x) {
  call void @work(i64 %x)
  ret void
}
define internal void @mine2(i64 %x) {
  call void @work(i64 %x)
  ret void
}
; CHECK-LABEL: define internal void @spawner(
; CHECK-LABEL: define internal void @spawner2(
define internal void @spawner(i64 %x) #2 {
  call void @work(i64 %x)
  ret void
}
define internal void @spawner2(i64 %x) #2 {
  call void @work(i64 %x)
  ret void
}
; CHECK-LABEL: define void @h.resume(
define void @h.resume(ptr %frame) #2 {
  %v = load i64, ptr %frame
  call void @f.weft.spawn(i64 %v)
  ret void
}

; Where the slow clones' and the others' addresses are stored.
; CHECK-LABEL: define void @frames(
; CHECK-NEXT:    store ptr @f.resume, ptr %a
; CHECK-NEXT:    store ptr @f.resume, ptr %b
; CHECK-NEXT:    store ptr @mine, ptr %a
; CHECK-NEXT:    store ptr @mine2, ptr %b
; CHECK-NEXT:    store ptr @spawner, ptr %a
; CHECK-NEXT:    store ptr @spawner2, ptr %b
define void @frames(ptr %a, ptr %b) {
  store ptr @f.resume, ptr %a
  store ptr @g.resume, ptr %b
  store ptr @mine, ptr %a
  store ptr @mine2, ptr %b
  store ptr @spawner, ptr %a
  store ptr @spawner2, ptr %b
  ret void
}

attributes #0 = { "weft-outlined" }
attributes #1 = { noinline "weft-outlined" }
attributes #2 = { "weft-spawning" }
