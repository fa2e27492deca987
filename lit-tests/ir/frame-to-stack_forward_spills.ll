; Verify that weft-frame-to-stack, before it sinks a frame's initialisation,
; lets the loads of a spilled value that run before the frame escapes take
; the value itself, so that a path below a spawn's cutoff neither spills nor
; zeroes the header (SinkFrameInit.cpp), and that it first makes a call
; whose landing pad only catches into the frame and rethrows a plain call
; (RethrowExits.cpp), since that pad used the frame too. A load after a
; push keeps reading the frame (the slot costs nothing more there), and so
; does one that the stolen exit reaches, a slot with two stores, and every
; slot of a frame that hands a slot's address to anyone.
;
; RUN: %opt-weft -passes=weft-frame-to-stack -S %s | FileCheck %s

declare ptr @__weft_frame_alloc(i64, i64)
declare void @__weft_frame_free(ptr)
declare i64 @__weft_push(ptr)
declare i1 @__weft_pop(i64)
declare void @__weft_spawn_stolen(ptr)
declare void @__weft_catch(ptr, ptr)
declare void @__weft_rethrow(ptr)
declare void @work(i64, i64)
declare void @take(ptr)
declare void @f.resume(ptr)
declare void @f.destroy(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i32 @__gxx_personality_v0(...)

; Below the cutoff: no store, no memset, and the join's work takes %s and
; %e. The spawning path initialises the frame before its push.
; CHECK-LABEL: define void @cutoff(i64 %s, i64 %e)
; CHECK:       entry:
; CHECK-NOT:     store
; CHECK-NOT:     memset
; CHECK:         br i1 %big, label %spawn, label %serial
; CHECK:       spawn:
; CHECK:         store i64 %s, ptr %spill.s
; CHECK:         store i64 %e, ptr %spill.e
; CHECK:         call void @llvm.memset
; CHECK:         call i64 @__weft_push(ptr %hdr)
; CHECK:       cont:
; CHECK-NEXT:    %s1 = load i64, ptr %spill.s
; CHECK:       serial:
; CHECK-NEXT:    call void @cutoff(i64 %s, i64 %half)
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    call void @work(i64 %s, i64 %e)
; CHECK:       stolen:
; CHECK-NEXT:    call void @__weft_spawn_stolen(ptr %hdr)
; CHECK-NOT:   {{^}}lpad:
; CHECK:       }
define void @cutoff(i64 %s, i64 %e) personality ptr @__gxx_personality_v0 {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 96, i64 16)
  %hdr = getelementptr inbounds i8, ptr %mem, i64 16
  %spill.s = getelementptr inbounds i8, ptr %mem, i64 56
  %spill.e = getelementptr inbounds i8, ptr %mem, i64 64
  store i64 %s, ptr %spill.s
  store i64 %e, ptr %spill.e
  call void @llvm.memset.p0.i64(ptr %hdr, i8 0, i64 40, i1 false)
  %n = sub i64 %e, %s
  %half = add i64 %s, 1
  %big = icmp sgt i64 %n, 100
  br i1 %big, label %spawn, label %serial

spawn:
  store ptr @f.resume, ptr %mem
  %mark = call i64 @__weft_push(ptr %hdr)
  invoke void @cutoff(i64 %half, i64 %e)
          to label %popped unwind label %spawn.lpad

popped:
  %ok = call i1 @__weft_pop(i64 %mark)
  br i1 %ok, label %cont, label %stolen

cont:
  %s1 = load i64, ptr %spill.s
  call void @cutoff(i64 %s1, i64 %half)
  br label %join

serial:
  invoke void @cutoff(i64 %s, i64 %half)
          to label %join unwind label %lpad

join:
  %s2 = load i64, ptr %spill.s
  %e2 = load i64, ptr %spill.e
  call void @work(i64 %s2, i64 %e2)
  br label %exit

stolen:
  call void @__weft_spawn_stolen(ptr %hdr)
  br label %exit

spawn.lpad:
  %x = landingpad { ptr, i32 }
          catch ptr null
  %xp = extractvalue { ptr, i32 } %x, 0
  call void @__weft_catch(ptr %hdr, ptr %xp)
  %p = call i1 @__weft_pop(i64 %mark)
  br i1 %p, label %rethrow, label %stolen

rethrow:
  call void @__weft_rethrow(ptr %hdr)
  unreachable

lpad:
  %y = landingpad { ptr, i32 }
          catch ptr null
  %yp = extractvalue { ptr, i32 } %y, 0
  call void @__weft_catch(ptr %hdr, ptr %yp)
  call void @__weft_rethrow(ptr %hdr)
  unreachable

exit:
  call void @__weft_frame_free(ptr %mem)
  ret void
}

; A load that the stolen exit reaches reads what the slow clone left.
; CHECK-LABEL: define i64 @after_stolen(i64 %s, i1 %big)
; CHECK:       exit:
; CHECK-NEXT:    %last = load i64, ptr %spill.s
define i64 @after_stolen(i64 %s, i1 %big) {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 96, i64 16)
  %hdr = getelementptr inbounds i8, ptr %mem, i64 16
  %spill.s = getelementptr inbounds i8, ptr %mem, i64 56
  store i64 %s, ptr %spill.s
  br i1 %big, label %spawn, label %exit

spawn:
  %mark = call i64 @__weft_push(ptr %hdr)
  %ok = call i1 @__weft_pop(i64 %mark)
  br i1 %ok, label %exit, label %stolen

stolen:
  call void @__weft_spawn_stolen(ptr %hdr)
  br label %exit

exit:
  %last = load i64, ptr %spill.s
  call void @__weft_frame_free(ptr %mem)
  ret i64 %last
}

; A slot stored twice keeps its load.
; CHECK-LABEL: define void @two_stores(i64 %s, i1 %big)
; CHECK:       serial:
; CHECK-NEXT:    %s2 = load i64, ptr %spill.s
define void @two_stores(i64 %s, i1 %big) {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 96, i64 16)
  %hdr = getelementptr inbounds i8, ptr %mem, i64 16
  %spill.s = getelementptr inbounds i8, ptr %mem, i64 56
  store i64 %s, ptr %spill.s
  br i1 %big, label %spawn, label %serial

spawn:
  %mark = call i64 @__weft_push(ptr %hdr)
  store i64 0, ptr %spill.s
  br label %exit

serial:
  %s2 = load i64, ptr %spill.s
  call void @work(i64 %s2, i64 %s2)
  br label %exit

exit:
  call void @__weft_frame_free(ptr %mem)
  ret void
}

; A slot's address handed to a call: no slot of the frame is forwarded.
; CHECK-LABEL: define void @slot_escapes(i64 %s, i1 %big)
; CHECK:       serial:
; CHECK-NEXT:    call void @take(ptr %local)
; CHECK-NEXT:    %s2 = load i64, ptr %spill.s
define void @slot_escapes(i64 %s, i1 %big) {
entry:
  %mem = call ptr @__weft_frame_alloc(i64 96, i64 16)
  %hdr = getelementptr inbounds i8, ptr %mem, i64 16
  %spill.s = getelementptr inbounds i8, ptr %mem, i64 56
  %local = getelementptr inbounds i8, ptr %mem, i64 64
  store i64 %s, ptr %spill.s
  br i1 %big, label %spawn, label %serial

spawn:
  %mark = call i64 @__weft_push(ptr %hdr)
  br label %exit

serial:
  call void @take(ptr %local)
  %s2 = load i64, ptr %spill.s
  call void @work(i64 %s2, i64 %s2)
  br label %exit

exit:
  call void @__weft_frame_free(ptr %mem)
  ret void
}
