//===- Pedigrees.h - Keeping each strand's pedigree (pedigree builds) -----===//
//
// Built with pedigrees (`-fplugin-arg-weft-pedigrees`, what weft-clang's
// -fopencilk-enable-pedigrees and --weft-pedigrees pass), every spawning
// function tells the runtime (runtime/pedigree.cpp) where its strands
// begin, so that each strand's pedigree follows the serial order at any
// worker count:
//
//   %ped = call ptr @__weft_pedigree_enter()          ; entry: the caller's
//                                                     ; frame, shared
//   call void @llvm.lifetime.start(ptr %child)        ; each spawn, before
//   call void @__weft_pedigree_spawn(ptr %ped, ptr %child) ; the push
//   %r = call i64 @f(...)                             ; the spawned call
//   call void @__weft_pedigree_resume(ptr %ped)       ; the parent's again
//   call void @llvm.lifetime.end(ptr %child)
//   ...
//   call void @__weft_pedigree_sync(ptr %ped)         ; before each sync
//                                                     ; and each return
//   weft.resumed:                                     ; after every suspend,
//   call void @__weft_pedigree_resume(ptr %ped)       ; in every landing pad,
//                                                     ; and where a parked
//                                                     ; fast clone returns
//
// %ped lives across the suspends, so coro-split keeps it in the coroutine
// frame and a thief resuming the slow clone sets its thread's frame from
// it. %child, the child's level, is a statement temporary: each activation
// of the fast or slow clone has its own (DynamicAllocas.cpp), since the
// child still runs on it while a thief may spawn the next one.
//
// Parallel loops call the splitter through __weft_pedigree_parallel_for_chunks,
// which gives each piece a level below the loop's, and the outlined loop
// marks where each iteration starts, which makes the level that
// iteration's, [..., r, i, 0], whatever the grain:
//
//   for.body:                                  ; k < hi
//     call void @__weft_pedigree_iteration(i64 %k)
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_LOWER_PEDIGREES_H
#define WEFT_PLUGIN_LOWER_PEDIGREES_H

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace weft {

/// Module-wide: the parallel loops' splitter calls go through
/// __weft_pedigree_parallel_for_chunks, their chunks marking each
/// iteration (or, for a chunk not in the outliner's form, through
/// __weft_pedigree_parallel_for, a call per iteration). Returns true if it
/// changed anything.
bool routeParallelLoopsThroughPedigrees(llvm::Module &M);

/// Emits the pedigree hooks into one spawning function at a time.
class PedigreeHooks {
public:
  explicit PedigreeHooks(llvm::Module &M);

  /// Takes the strand's frame before \p Before, F's first own instruction.
  void enter(llvm::Instruction *Before);
  /// A frame for the child of \p Spawn, made just before it; the parent's
  /// frame again before \p After, the first instruction after the call
  /// returns. Returns the child's frame, an alloca whose lifetime ends
  /// there: a statement temporary of the spawn.
  llvm::AllocaInst *spawn(llvm::Instruction *Spawn, llvm::Instruction *After);
  /// Counts a sync before \p Before.
  void sync(llvm::Instruction *Before);
  /// Makes the function's frame the thread's again, at \p B's insertion
  /// point; \p Frame if given, a value that is the function's frame.
  void resume(llvm::IRBuilderBase &B, llvm::Value *Frame = nullptr);
  /// The function's frame, as enter() took it.
  llvm::Value *frame() const { return Frame; }
  /// resume() in every landing pad of \p F.
  void resumeInLandingPads(llvm::Function &F);
  /// Once every call is in: takes the frame no earlier than its uses need,
  /// so that a call that spawns nothing (a leaf of a recursion) does not.
  void sinkEnter();

private:
  llvm::FunctionCallee Enter, Spawn, Resume, Sync;
  llvm::Value *Frame = nullptr; // the current function's pedigree frame
};

} // namespace weft

#endif // WEFT_PLUGIN_LOWER_PEDIGREES_H
