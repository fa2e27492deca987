; A frame allocation whose size is not a constant (frame_alloc_constant.ll).
declare ptr @__weft_frame_alloc(i64, i64)
declare void @use(ptr)

define void @dynamic(i64 %size) {
  %mem = call ptr @__weft_frame_alloc(i64 %size, i64 16)
  call void @use(ptr %mem)
  ret void
}
