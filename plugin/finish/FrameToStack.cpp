//===- FrameToStack.cpp - Put each fast clone's frame in its stack frame --===//
//
// LowerSpawns allocates every coroutine frame with
//   %mem = call ptr @__weft_frame_alloc(i64 %size, i64 %align) ; coro.size,
//                                                               ; coro.align
// because coro-split rejects dynamic allocas and the size is unknown until
// it runs. After the split both are constants, and this pass rewrites
//   %mem = call ptr @__weft_frame_alloc(i64 96, i64 32)
//                                       ==>  %mem = alloca [96 x i8], align 32
//   call void @__weft_frame_free(ptr %mem)       ==>  (nothing)
// with the alloca in the entry block of whatever function now holds the
// call (the fast clone, or a caller it was inlined into). That is safe
// because a fast clone whose frame is stolen parks its stack, so the stack
// frame outlives the slow clone (LowerSpawns.cpp explains).
//
// __weft_frame_alloc and __weft_frame_free are placeholders: no runtime
// defines them. coro-split's switch lowering always leaves a constant size
// (the frame is one struct type), so every allocation becomes an alloca;
// its alignment is the frame's, or FrameMemoryAlign if that is more (the
// promise's), so that a value the frame builder laid out at a 32- or
// 64-byte boundary (a __m256 kept across a spawn) is at one. A function
// whose frame is aligned more than the stack realigns its stack, as for
// any over-aligned local. One left with another size would mean the
// pipeline broke that, and is reported as an internal error rather than
// left as an undefined reference for the link to find.
//
// Together with the sinking of each frame's initialisation
// (SinkFrameInit.cpp) this is the step weft-frame-to-stack, the third of
// those after the split (Finish.cpp gives their order).
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "weft-frame-to-stack"

using namespace llvm;

STATISTIC(NumFramesOnStack, "Spawning-function frames moved to the stack");

namespace weft {

/// A frame allocation whose size or alignment coro-split did not make a
/// constant (see the top of this file): no runtime could serve it.
void reportDynamicFrame(CallInst &Alloc) {
  Function &F = *Alloc.getFunction();
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F,
      "weft: internal error: a coroutine frame of non-constant size or "
      "alignment after coro-split",
      Alloc.getDebugLoc(), DS_Error));
}

/// Moves the allocas of a constant size that coro-split left in the blocks
/// run once, straight after the entry of \p F (the function's own locals:
/// the split put the frame's set-up and its blocks in front of them), back
/// to the entry block. Outside it an alloca is a dynamic one, which moves
/// the stack pointer by a multiple of 16 only: at -O0, where nothing else
/// moves them, an argument passed in memory at 64-byte alignment (a 64-byte
/// vector, byval) was then copied with aligned moves to a misaligned stack.
static void hoistStraightLineAllocas(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  Instruction *Top = &*Entry.getFirstInsertionPt();
  SmallPtrSet<BasicBlock *, 8> Seen = {&Entry};
  for (BasicBlock *BB = Entry.getUniqueSuccessor();
       BB && BB->getSinglePredecessor() && Seen.insert(BB).second;
       BB = BB->getUniqueSuccessor()) {
    SmallVector<AllocaInst *, 8> Allocas;
    for (Instruction &I : *BB)
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && isa<ConstantInt>(AI->getArraySize()) &&
          !AI->isUsedWithInAlloca())
        Allocas.push_back(AI);
    for (AllocaInst *AI : Allocas)
      compat::moveBefore(AI, Top);
  }
}

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
      if (isa<ConstantInt>(CI->getArgOperand(0)) &&
          isa<ConstantInt>(CI->getArgOperand(1)))
        Allocs.push_back(CI);
      else
        reportDynamicFrame(*CI);
    }

  SmallPtrSet<Function *, 8> Holders;
  SmallVector<AllocaInst *, 16> Slots;
  for (CallInst *CI : Allocs) {
    uint64_t Bytes = cast<ConstantInt>(CI->getArgOperand(0))->getZExtValue();
    BasicBlock &Entry = CI->getFunction()->getEntryBlock();
    IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
    AllocaInst *Slot = B.CreateAlloca(
        ArrayType::get(B.getInt8Ty(), Bytes ? Bytes : 1), nullptr,
        FrameSlotName);
    uint64_t FrameAlign =
        cast<ConstantInt>(CI->getArgOperand(1))->getZExtValue();
    Slot->setAlignment(std::max(Align(FrameMemoryAlign), Align(FrameAlign)));
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
  for (Function *F : Holders)
    hoistStraightLineAllocas(*F);
  for (AllocaInst *Slot : Slots)
    sinkFrameInitialization(Slot);
  return !Allocs.empty();
}

} // namespace weft
