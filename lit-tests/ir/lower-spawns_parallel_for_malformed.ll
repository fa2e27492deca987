; Verify that parallel-loop markers the pass cannot outline (IR that did not
; come from the front end) give an error naming the function, never a crash:
; a loop without its end marker, a region that returns from the function,
; a marker whose loop identity is not a constant. (opt stops at the first
; error, so each case is a file of its own.)
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/no_end.ll 2>&1 | FileCheck --check-prefix=NOEND %s
; NOEND: in function no_end {{.*}}cilk_for cannot be outlined: the end of the loop is missing
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/returns.ll 2>&1 | FileCheck --check-prefix=RETURNS %s
; RETURNS: in function returns {{.*}}cilk_for cannot be outlined: its body returns or unwinds out of the loop
; RUN: not %opt-weft -passes=weft-lower-spawns -disable-output %t/bad_id.ll 2>&1 | FileCheck --check-prefix=BADID %s
; BADID: in function bad_id {{.*}}cilk_for cannot be outlined: malformed marker

;--- no_end.ll
declare void @__weft_pfor(i64, i64, i32)

define void @no_end(i64 %n) {
entry:
  call void @__weft_pfor(i64 %n, i64 0, i32 7)
  ret void
}

;--- returns.ll
declare void @__weft_pfor(i64, i64, i32)
declare i64 @__weft_pfor_lo(i32)
declare i64 @__weft_pfor_hi(i32)
declare void @__weft_pfor_end(i32)
declare void @work(i64)

define void @returns(i64 %n) {
entry:
  %k = alloca i64
  call void @__weft_pfor(i64 %n, i64 0, i32 8)
  %lo = call i64 @__weft_pfor_lo(i32 8)
  store i64 %lo, ptr %k
  br label %cond
cond:
  %i = load i64, ptr %k
  %hi = call i64 @__weft_pfor_hi(i32 8)
  %more = icmp ult i64 %i, %hi
  br i1 %more, label %body, label %end
body:
  call void @work(i64 %i)
  %odd = trunc i64 %i to i1
  br i1 %odd, label %out, label %next
next:
  %i1 = add i64 %i, 1
  store i64 %i1, ptr %k
  br label %cond
out:
  ret void
end:
  call void @__weft_pfor_end(i32 8)
  ret void
}

;--- bad_id.ll
declare void @__weft_pfor(i64, i64, i32)

define void @bad_id(i64 %n, i32 %id) {
entry:
  call void @__weft_pfor(i64 %n, i64 0, i32 %id)
  ret void
}
