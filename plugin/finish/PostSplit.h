//===- PostSplit.h - The steps that must wait for coro-split --------------===//
//
// After coro-split each spawning function is a fast clone (the ramp) and a
// slow clone (.resume). These steps run at the end of the pipeline, in the
// order FrameToStackPass::run gives.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_FINISH_POSTSPLIT_H
#define WEFT_PLUGIN_FINISH_POSTSPLIT_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class AllocaInst;
} // namespace llvm

namespace weft {

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

/// Each __weft_is_stolen call becomes false in a fast clone and a load of
/// the flag elsewhere (StolenChecks.cpp). Adds the functions it folded to
/// \p Touched.
bool lowerStolenChecks(llvm::Module &M,
                       llvm::SmallPtrSetImpl<llvm::Function *> &Touched);

/// Puts back the dynamic allocas and stack saves that the lowering hid
/// behind markers, as stack allocations in fast clones and arena
/// allocations in slow clones (lower/DynamicAllocas.cpp). \p FastClones are
/// the functions that allocate a coroutine frame. Returns true if it
/// changed anything.
bool placeDynamicAllocas(llvm::Module &M,
                         const llvm::SmallPtrSetImpl<llvm::Function *> &FastClones);

/// Runs last on each fast clone: the `unreachable` after each runtime
/// rethrow becomes a branch to the function's only return, so that
/// shrink-wrapping can keep the prologue off the paths that never spawn
/// (RethrowExits.cpp). Returns true if it changed \p F.
bool routeRethrowsToReturn(llvm::Function &F);

/// Inlines the runtime's push and pop (runtime/fast_path.cpp, embedded as
/// bitcode) at each call the lowering emitted (FastPath.cpp). Returns true
/// if it changed anything. Adds the functions it inlined into to
/// \p Touched.
bool inlineFastPath(llvm::Module &M,
                    llvm::SmallPtrSetImpl<llvm::Function *> &Touched);

/// Once \p Frame (a fast clone's coroutine frame) is an alloca: moves the
/// stores that initialise it off the paths that never use it
/// (SinkFrameInit.cpp). Returns true if it moved any.
bool sinkFrameInitialization(llvm::AllocaInst *Frame);

} // namespace weft

#endif // WEFT_PLUGIN_FINISH_POSTSPLIT_H
