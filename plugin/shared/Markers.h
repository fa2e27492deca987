//===- Markers.h - The names the front end and the passes agree on -------===//
//
// The front end leaves three kinds of marks in the IR:
//
//   %f = call ptr @__weft_spawn_marker(ptr @fib, i32 1234)
//   %r = call i64 %f(i64 %n1)                   ; the call through %f: a spawn
//   store i64 %r, ptr %x.addr                      ; the spawned statement's
//   call void @__weft_spawn_end()                  ; ... end (after its cleanups)
//   call void @__weft_sync_marker()                ; a sync
//
// or, for a member call, its object:
//
//   %p = call ptr @__weft_spawn_object(ptr %obj, i32 1234)
//   %r = call i64 @_ZN1S1mEl(ptr %p, i64 %a)       ; `this` derives from %p
//
// The i32 is the raw encoding of the spawn's clang::SourceLocation, where
// errors about the spawn are reported (SourceErrors.h). A third argument,
// a string, says which arguments are classes passed by value through a
// temporary of the call (frontend/ArgumentLayout.cpp).
//
// The lowering (lower/) consumes the marks and leaves markers of its own
// for the steps after coro-split (finish/). This header has no Clang
// dependency: both halves include it.
//
// Every function named here is a placeholder: a later pass replaces each
// call, and none reaches an object file (lit-tests/abi/ checks that a
// compiled program references no __weft_ function but the runtime's). The
// runtime's entry points are elsewhere, in weft/runtime_abi.def
// (RuntimeABI.h). A pass's own placeholders are named next to it, and
// marked as such (lower/DynamicAllocas.cpp, lower/ThreadLocals.cpp,
// lower/parallel_for/ParallelFor.h).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SHARED_MARKERS_H
#define WEFT_PLUGIN_SHARED_MARKERS_H

namespace weft {

// Front end -> lowering.
inline constexpr const char *SpawnMarkerName = "__weft_spawn_marker";
inline constexpr const char *SyncMarkerName = "__weft_sync_marker";
inline constexpr const char *ObjectMarkerName = "__weft_spawn_object";
inline constexpr const char *SpawnEndMarkerName = "__weft_spawn_end";
/// A spawned call's string attribute listing the operands that are
/// by-value temporaries of the call (frontend/ArgumentLayout.cpp): "1,3".
inline constexpr const char *ArgumentTemporariesAttr = "weft-arg-temporaries";

// Lowering -> post-split steps.
/// A coroutine frame's allocation and release (`ptr (i64)`, `void (ptr)`):
/// never calls into the runtime, each becomes a stack slot of the fast
/// clone after the split (finish/FrameToStack.cpp).
inline constexpr const char *FrameAllocName = "__weft_frame_alloc";
inline constexpr const char *FrameFreeName = "__weft_frame_free";
/// The alignment of a spawning function's coroutine frame memory: coro.id
/// tells coro-split to assume it (lower/SpawnLowering.cpp), and the alloca
/// that holds the frame once its size is known provides it
/// (finish/FrameToStack.cpp). The promise inside, the runtime's Frame, is
/// aligned to WEFT_FRAME_PROMISE_ALIGN, which holds only in memory aligned
/// as much.
inline constexpr unsigned FrameMemoryAlign = 16;

/// Reads a frame's `stolen` flag: `i1 (ptr frame)`, lowered by
/// finish/StolenChecks.cpp.
inline constexpr const char *IsStolenName = "__weft_is_stolen";
/// A dynamic alloca, a stack save and a stack restore, hidden from
/// coro-split (`ptr (ptr arena, i64 bytes, i64 align)`, `ptr ()`,
/// `void (ptr)`), and a spawned statement's temporary
/// (`ptr (i64 bytes, i64 align, i64 id)`): lower/DynamicAllocas.cpp makes
/// them, finish/PlaceDynamicAllocas.cpp puts them back.
inline constexpr const char *DynamicAllocaName = "__weft_dynamic_alloca";
inline constexpr const char *StackSaveName = "__weft_stack_save";
inline constexpr const char *StackRestoreName = "__weft_stack_restore";
inline constexpr const char *StatementAllocaName = "__weft_statement_alloca";
/// A statement temporary's lifetime start and end (`void (ptr)`, the
/// pointer a StatementAllocaName call returned): lifetime intrinsics may
/// only mark an alloca (LLVM 22's verifier insists), and the temporary is
/// none until finish/PlaceDynamicAllocas.cpp makes it one and these
/// intrinsics again.
inline constexpr const char *StatementLifetimeStartName =
    "__weft_statement_lifetime_start";
inline constexpr const char *StatementLifetimeEndName =
    "__weft_statement_lifetime_end";
/// Metadata on the static alloca that finish/PlaceDynamicAllocas.cpp makes
/// of a statement temporary: it lives for one spawned statement only, so
/// finish/SpawnTailCalls.cpp may keep one copy of it for every round of a
/// loop that a tail call became.
inline constexpr const char *StatementTemporaryMD = "weft.statement.temporary";
/// Metadata on the empty asm that lets a spawn's destination escape
/// (lower/SpawnWindow.cpp), telling it from the program's own empty asm.
inline constexpr const char *EscapeMarkerMD = "weft.escape";

/// Function attributes on what the lowering makes, for
/// finish/MergeClones.cpp, which keeps one copy of identical ones: the
/// program never sees these functions' addresses. "weft-spawning" is on
/// each spawning function, and so, copied by coro-split, on its slow
/// clones (NAME.resume, .destroy, .cleanup); "weft-outlined" on each
/// cilk_for body outlined for the splitter and each spawn helper.
inline constexpr const char *SpawningFunctionAttr = "weft-spawning";
inline constexpr const char *OutlinedFunctionAttr = "weft-outlined";
/// On each cilk_for body outlined for the splitter (besides "weft-outlined"),
/// for finish/ChunkCallees.cpp, which inlines what only it calls.
inline constexpr const char *ParallelLoopChunkAttr = "weft-pfor-chunk";

} // namespace weft

#endif // WEFT_PLUGIN_SHARED_MARKERS_H
