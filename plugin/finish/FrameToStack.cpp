//===- FrameToStack.cpp - Put each fast clone's frame in its stack frame --===//
//
// LowerSpawns allocates every coroutine frame with
//   %mem = call ptr @__weft_frame_alloc(i64 %size)   ; coro.size
// because coro-split rejects dynamic allocas and the size is unknown until
// it runs. After the split the size is a constant, and this pass rewrites
//   %mem = call ptr @__weft_frame_alloc(i64 48)  ==>  %mem = alloca [48 x i8]
//   call void @__weft_frame_free(ptr %mem)       ==>  (nothing)
// with the alloca in the entry block of whatever function now holds the
// call (the fast clone, or a caller it was inlined into). That is safe
// because a fast clone whose frame is stolen parks its stack, so the stack
// frame outlives the slow clone (LowerSpawns.cpp explains). Any allocation
// left dynamic still works: the runtime serves it from the heap.
//
// The same pass runs the rest of what must wait for the split, in order:
// the inlined fast path (FastPath.cpp), the stolen checks
// (StolenChecks.cpp), the frames above with their initialisation sunk
// (SinkFrameInit.cpp), dynamic allocas (DynamicAllocas.cpp), a clean-up of
// what it changed, the fast clones' rethrows routed to their return
// (RethrowExits.cpp), and last the thread-local addresses (ThreadLocals.cpp).
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "lower/SpawnLowering.h"
#include "lower/ThreadLocals.h"
#include "shared/Markers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/DeadStoreElimination.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

#define DEBUG_TYPE "weft-frame-to-stack"

using namespace llvm;

STATISTIC(NumFramesOnStack, "Spawning-function frames moved to the stack");

namespace weft {
namespace {

/// Each frame allocation of a constant size becomes an alloca in the entry
/// block of the function that holds it, and its free disappears. Adds the
/// functions that allocate a frame to \p FastClones.
bool placeFramesOnStack(Module &M, SmallPtrSetImpl<Function *> &FastClones) {
  Function *Alloc = M.getFunction(FrameAllocName);
  if (!Alloc)
    return false;
  SmallVector<CallInst *, 16> Allocs;
  for (User *U : Alloc->users())
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledFunction() == Alloc) {
      FastClones.insert(CI->getFunction());
      if (isa<ConstantInt>(CI->getArgOperand(0)))
        Allocs.push_back(CI);
    }

  SmallPtrSet<Function *, 8> Holders;
  SmallVector<AllocaInst *, 16> Slots;
  for (CallInst *CI : Allocs) {
    uint64_t Bytes = cast<ConstantInt>(CI->getArgOperand(0))->getZExtValue();
    BasicBlock &Entry = CI->getFunction()->getEntryBlock();
    IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
    AllocaInst *Slot = B.CreateAlloca(
        ArrayType::get(B.getInt8Ty(), Bytes ? Bytes : 1), nullptr,
        "weft.frame.mem");
    Slot->setAlignment(Align(FrameMemoryAlign));
    CI->replaceAllUsesWith(Slot);
    Holders.insert(CI->getFunction());
    CI->eraseFromParent();
    ++NumFramesOnStack;
    Slots.push_back(Slot);
  }
  // Tail-call elimination marked calls `tail` while the frame was heap
  // memory. Now that it is an alloca, a sibling call could pop the stack
  // frame that holds it before the callee (the runtime, or a child that the
  // frame escaped to) reads it, so no call in the holder may stay `tail`.
  for (Function *F : Holders)
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->isTailCall() &&
                                               !Call->isMustTailCall())
        Call->setTailCallKind(CallInst::TCK_None);

  if (Function *Free = M.getFunction(FrameFreeName)) {
    SmallVector<CallInst *, 16> Frees;
    for (User *U : Free->users())
      if (auto *CI = dyn_cast<CallInst>(U);
          CI && isa<AllocaInst>(getUnderlyingObject(CI->getArgOperand(0))))
        Frees.push_back(CI);
    for (CallInst *CI : Frees)
      CI->eraseFromParent();
  }
  for (AllocaInst *Slot : Slots)
    sinkFrameInitialization(Slot);
  return !Allocs.empty();
}

/// Nothing optimises after the end of the pipeline, so the functions that
/// got the fast path inlined, their stolen checks folded and their frame
/// initialisation moved get a short clean-up of their own: forwarding of
/// the frame's stores to its loads, the dead stores on the way out (which
/// keep shrink-wrapping from taking the prologue off a leaf's path), and
/// the branches and blocks left behind.
bool cleanUpFastClones(const SmallPtrSetImpl<Function *> &Functions,
                       ModuleAnalysisManager &MAM, Module &M) {
  FunctionPassManager FPM;
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(DSEPass());
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function *F : Functions)
    if (!F->isDeclaration() && !F->hasOptNone())
      FAM.invalidate(*F, FPM.run(*F, FAM));
  return !Functions.empty();
}

} // namespace

PreservedAnalyses FrameToStackPass::run(Module &M, ModuleAnalysisManager &MAM) {
  SmallPtrSet<Function *, 16> Touched;
  bool Changed = inlineFastPath(M, Touched);
  Changed |= lowerStolenChecks(M, Touched);
  SmallPtrSet<Function *, 8> FastClones; // whoever allocates a frame
  Changed |= placeFramesOnStack(M, FastClones);
  Changed |= placeDynamicAllocas(M, FastClones);
  if (CleanUp) {
    Touched.insert(FastClones.begin(), FastClones.end());
    Changed |= cleanUpFastClones(Touched, MAM, M);
    // After the clean-up, which would see the new edges as dead.
    for (Function *F : FastClones)
      Changed |= routeRethrowsToReturn(*F);
  }
  // Last: from here on, thread-local addresses are the readnone intrinsic
  // again, which no pass may see.
  Changed |= restoreThreadLocalAddresses(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
