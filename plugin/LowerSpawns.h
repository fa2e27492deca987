//===- LowerSpawns.h - Split spawning functions into fast and slow clones -===//
//
// The IR half of Weft. The front end leaves three kinds of marks in the IR:
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
// temporary of the call (ArgumentLayout.cpp).
//
// LowerSpawnsPass turns every function holding such marks into an LLVM
// switch-resume coroutine whose ramp is the fast clone and whose .resume
// function is the slow clone; see LowerSpawns.cpp for the strategy.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_LOWERSPAWNS_H
#define WEFT_PLUGIN_LOWERSPAWNS_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class AllocaInst;
class PassBuilder;
} // namespace llvm

namespace weft {

inline constexpr const char *SpawnMarkerName = "__weft_spawn_marker";
inline constexpr const char *SyncMarkerName = "__weft_sync_marker";
inline constexpr const char *ObjectMarkerName = "__weft_spawn_object";
inline constexpr const char *SpawnEndMarkerName = "__weft_spawn_end";
inline constexpr const char *FrameAllocName = "__weft_frame_alloc";
inline constexpr const char *FrameFreeName = "__weft_frame_free";
/// A spawned call's string attribute listing the operands that are
/// by-value temporaries of the call (ArgumentLayout.cpp): "1,3".
inline constexpr const char *ArgumentTemporariesAttr = "weft-arg-temporaries";
/// Reads a frame's `stolen` flag: `i1 (ptr frame)`, lowered by FrameToStack.
inline constexpr const char *IsStolenName = "__weft_is_stolen";
/// Metadata on the empty asm that lets a spawn's destination escape
/// (SpawnWindow.cpp), telling it from the program's own empty asm.
inline constexpr const char *EscapeMarkerMD = "weft.escape";

class LowerSpawnsPass : public llvm::PassInfoMixin<LowerSpawnsPass> {
public:
  /// With \p WorkSpan, the lowering also emits the calls of the work/span
  /// analysis (WorkSpan.h); opt spells it weft-lower-spawns<workspan>.
  explicit LowerSpawnsPass(bool WorkSpan = false) : WorkSpan(WorkSpan) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Spawning functions must be lowered at -O0 too (optnone functions).
  static bool isRequired() { return true; }

private:
  bool WorkSpan;
};

/// Runs after coro-split, at the end of the pipeline: inlines the runtime's
/// fast path, folds the fast clones' stolen checks, makes each frame
/// allocation of a constant size an alloca in the entry block of the
/// function that holds it (the fast clone, or its caller once inlined) and
/// drops its free, places dynamic allocas, and puts the thread-local
/// addresses back. With \p CleanUp (any -O but -O0) it also runs a short
/// clean-up on the functions it changed.
class FrameToStackPass : public llvm::PassInfoMixin<FrameToStackPass> {
public:
  explicit FrameToStackPass(bool CleanUp = false) : CleanUp(CleanUp) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  bool CleanUp;
};

/// Runs after coro-split, from FrameToStackPass: each __weft_is_stolen call
/// becomes false in a fast clone and a load of the flag elsewhere
/// (StolenChecks.cpp). Adds the functions it folded to \p Touched.
bool lowerStolenChecks(llvm::Module &M,
                       llvm::SmallPtrSetImpl<llvm::Function *> &Touched);

/// Runs after coro-split, from FrameToStackPass: puts back the dynamic
/// allocas and stack saves that the lowering hid behind markers, as stack
/// allocations in fast clones and arena allocations in slow clones
/// (DynamicAllocas.cpp). \p FastClones are the functions that allocate a
/// coroutine frame. Returns true if it changed anything.
bool placeDynamicAllocas(llvm::Module &M,
                         const llvm::SmallPtrSetImpl<llvm::Function *> &FastClones);

/// Runs last on each fast clone, from FrameToStackPass: the `unreachable`
/// after each runtime rethrow becomes a branch to the function's only
/// return, so that shrink-wrapping can keep the prologue off the paths
/// that never spawn (RethrowExits.cpp). Returns true if it changed \p F.
bool routeRethrowsToReturn(llvm::Function &F);

/// From the start of the pipeline to its end, thread_local addresses are
/// computed by an opaque call that no call lets LLVM reuse across, since
/// any call may return on another thread (ThreadLocals.cpp). Each returns
/// true if it changed anything.
bool hideThreadLocalAddresses(llvm::Module &M);
bool restoreThreadLocalAddresses(llvm::Module &M);

/// Runs after coro-split, from FrameToStackPass: inlines the runtime's push
/// and pop (runtime/fast_path.cpp, embedded as bitcode) at each call the
/// lowering emitted (FastPath.cpp). Returns true if it changed anything.
/// Adds the functions it inlined into to \p Touched.
bool inlineFastPath(llvm::Module &M,
                    llvm::SmallPtrSetImpl<llvm::Function *> &Touched);

/// Runs from FrameToStackPass once \p Frame (a fast clone's coroutine
/// frame) is an alloca: moves the stores that initialise it off the paths
/// that never use it (SinkFrameInit.cpp). Returns true if it moved any.
bool sinkFrameInitialization(llvm::AllocaInst *Frame);

/// The runtime's entry that runs main on a stack deep enough for spawning
/// code (runtime/main_stack.h).
inline constexpr const char *RunMainName = "__weft_run_main";

/// Has a program's main entered through __weft_run_main, so that it runs
/// on the runtime's deep stack (MainStack.cpp).
class MainStackPass : public llvm::PassInfoMixin<MainStackPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Registers "weft-lower-spawns" (and "weft-lower-spawns<workspan>") and
/// "weft-frame-to-stack" and "weft-main-stack" for pipeline parsing (opt -passes=...) and, when
/// \p InPipelines is set, runs the first at the start of every default
/// pipeline (the standard coroutine passes then split the result), in
/// workspan mode if \p WorkSpan is set, with the third, and the second
/// at its end.
void registerLowerSpawns(llvm::PassBuilder &PB, bool InPipelines,
                         bool WorkSpan = false);

} // namespace weft

#endif // WEFT_PLUGIN_LOWERSPAWNS_H
