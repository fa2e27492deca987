; Verify that weft-merge-clones makes a spawning function whose body is its
; spawning callee's, with its calls of the callee where the callee calls
; itself, a call of that twin (finish/MergeClones.cpp): the shape of
; parlaylib's parallel_for<L>, which recurses into parallel_for<L&>. The
; forwarding function keeps its symbol, linkage, comdat and parameter
; attributes, and passes them on (a bool's zeroext), its other function
; attributes and its metadata (a KCFI type id). Two spawning functions that
; call each other rather than themselves are no twins in this sense, and so
; are a callee that differs, a weak callee (another object's definition may
; be the one that runs), a callee of another personality, variadic twins
; (a call could not pass the variadic arguments on), and a program's own
; function without the spawning attribute: they keep their bodies.
;
; RUN: %opt-weft -passes=weft-merge-clones -S %s | FileCheck %s

$outer = comdat any

declare void @work(i64)

; CHECK-LABEL: define linkonce_odr void @outer(
; CHECK-SAME:    i64 %lo, i64 %hi, i1 zeroext %flag) #[[UWTABLE:[0-9]+]] comdat !kcfi_type ![[KCFI:[0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    tail call void @inner(i64 %lo, i64 %hi, i1 zeroext %flag)
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
define linkonce_odr void @outer(i64 %lo, i64 %hi, i1 zeroext %flag) #0 comdat !kcfi_type !0 {
  %n = sub i64 %hi, %lo
  %small = icmp ult i64 %n, 2
  br i1 %small, label %leaf, label %split
leaf:
  call void @work(i64 %lo)
  ret void
split:
  %half = lshr i64 %n, 1
  %mid = add i64 %lo, %half
  call void @inner(i64 %lo, i64 %mid, i1 zeroext %flag)
  call void @inner(i64 %mid, i64 %hi, i1 zeroext %flag)
  ret void
}

; The twin keeps its body, which calls itself.
; CHECK-LABEL: define linkonce_odr void @inner(
; CHECK:         call void @work(i64 %lo)
; CHECK:         call void @inner(i64 %mid, i64 %hi, i1 zeroext %flag)
define linkonce_odr void @inner(i64 %lo, i64 %hi, i1 zeroext %flag) #0 {
  %n = sub i64 %hi, %lo
  %small = icmp ult i64 %n, 2
  br i1 %small, label %leaf, label %split
leaf:
  call void @work(i64 %lo)
  ret void
split:
  %half = lshr i64 %n, 1
  %mid = add i64 %lo, %half
  call void @inner(i64 %lo, i64 %mid, i1 zeroext %flag)
  call void @inner(i64 %mid, i64 %hi, i1 zeroext %flag)
  ret void
}

; Calling each other, not themselves.
; CHECK-LABEL: define void @ping(i64 %n)
; CHECK-NEXT:    %m = add i64 %n, -1
; CHECK-LABEL: define void @pong(i64 %n)
; CHECK-NEXT:    %m = add i64 %n, -1
define void @ping(i64 %n) #0 {
  %m = add i64 %n, -1
  call void @work(i64 %m)
  call void @pong(i64 %m)
  ret void
}
define void @pong(i64 %n) #0 {
  %m = add i64 %n, -1
  call void @work(i64 %m)
  call void @ping(i64 %m)
  ret void
}

; Not alike (the leaf works on %hi): both keep their bodies.
; CHECK-LABEL: define void @other(
; CHECK-NEXT:    call void @work(i64 %lo)
define void @other(i64 %lo, i64 %hi) #0 {
  call void @work(i64 %lo)
  call void @different(i64 %lo, i64 %hi)
  ret void
}
; CHECK-LABEL: define void @different(
; CHECK-NEXT:    call void @work(i64 %hi)
define void @different(i64 %lo, i64 %hi) #0 {
  call void @work(i64 %hi)
  call void @different(i64 %lo, i64 %hi)
  ret void
}

; A weak twin: the linker may pick another object's body.
; CHECK-LABEL: define void @calls_weak(
; CHECK-NEXT:    call void @work(i64 %x)
define void @calls_weak(i64 %x) #0 {
  call void @work(i64 %x)
  call void @weak_twin(i64 %x)
  ret void
}
define weak void @weak_twin(i64 %x) #0 {
  call void @work(i64 %x)
  call void @weak_twin(i64 %x)
  ret void
}

; A twin whose landing pad answers to another personality.
; CHECK-LABEL: define void @c_personality(
; CHECK-NEXT:    invoke void @work(i64 %x)
define void @c_personality(i64 %x) #0 personality ptr @__gcc_personality_v0 {
  invoke void @work(i64 %x) to label %next unwind label %pad
next:
  call void @cxx_twin(i64 %x)
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
define void @cxx_twin(i64 %x) #0 personality ptr @__gxx_personality_v0 {
  invoke void @work(i64 %x) to label %next unwind label %pad
next:
  call void @cxx_twin(i64 %x)
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
declare i32 @__gcc_personality_v0(...)
declare i32 @__gxx_personality_v0(...)

; Variadic twins: a call could not pass the variadic arguments on.
; CHECK-LABEL: define void @va_outer(
; CHECK-NEXT:    call void @work(i64 %x)
define void @va_outer(i64 %x, ...) #0 {
  call void @work(i64 %x)
  call void (i64, ...) @va_inner(i64 %x)
  ret void
}
define void @va_inner(i64 %x, ...) #0 {
  call void @work(i64 %x)
  call void (i64, ...) @va_inner(i64 %x)
  ret void
}

; The program's own: no spawning attribute, no forwarding.
; CHECK-LABEL: define void @mine(
; CHECK-NEXT:    call void @work(i64 %x)
define void @mine(i64 %x) {
  call void @work(i64 %x)
  call void @yours(i64 %x)
  ret void
}
define void @yours(i64 %x) {
  call void @work(i64 %x)
  call void @yours(i64 %x)
  ret void
}

; The forwarding function is no spawning function any more.
; CHECK-DAG: attributes #{{[0-9]+}} = { uwtable "weft-spawning" }
; CHECK-DAG: attributes #[[UWTABLE]] = { uwtable }
; CHECK: ![[KCFI]] = !{i32 1234}
attributes #0 = { uwtable "weft-spawning" }

!0 = !{i32 1234}
