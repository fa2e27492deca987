//===- StolenChecks.cpp - A fast clone's frame is never stolen ------------===//
//
// The lowering reads a frame's `stolen` flag wherever the fast and the slow
// clone must part ways (each sync, the return, each landing pad), through
//   %s = call i1 @__weft_is_stolen(ptr %frame)   ; argmem read
// rather than a load, because LLVM would drop any mark of what a load
// reads when it merges it with another. After coro-split this file decides
// each one: in a fast clone it is false, so a sync there costs nothing at
// all; in a slow clone it becomes the load of the flag.
//
// The fast clones' checks are folded twice. Once per clone right after
// coro-split made it (EarlyStolenChecksPass, at the CGSCC pipeline's
// optimizer-late point), so that the inliner, which then decides on the
// clone's callers, weighs it without the slow paths of its syncs and
// landing pads: a template whose spawning path a caller's constant
// argument folds away (parlaylib's parallel_for with its default grain)
// is then as cheap to inline as its serial elision. And once more in
// weft-finish for every clone, where a check an early fold did not reach
// (at -O0, or through opt alone) is decided.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/Markers.h"

#include "weft/frame_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace weft {
namespace {

/// Replaces \p I with \p C and folds what becomes constant downstream
/// (the `and` with the steal count at a landing pad, say).
void foldToConstant(Instruction *I, Constant *C) {
  const DataLayout &DL = I->getDataLayout();
  SmallVector<std::pair<Instruction *, Constant *>, 16> Work = {{I, C}};
  SmallPtrSet<Instruction *, 16> Queued = {I};
  while (!Work.empty()) {
    auto [Done, Value] = Work.pop_back_val();
    SmallVector<Instruction *, 4> Users;
    for (User *U : Done->users())
      Users.push_back(cast<Instruction>(U));
    Done->replaceAllUsesWith(Value);
    Done->eraseFromParent();
    for (Instruction *U : Users)
      if (!isa<PHINode>(U) && !U->isTerminator() && !Queued.count(U))
        if (auto *Folded =
                dyn_cast_or_null<Constant>(simplifyInstruction(U, {DL}))) {
          Work.push_back({U, Folded});
          Queued.insert(U);
        }
  }
}

/// Folds the branches that became constant and drops what they cut off.
void removeDeadPaths(Function &F) {
  for (BasicBlock &BB : F)
    ConstantFoldTerminator(&BB);
  removeUnreachableBlocks(F);
}

/// The frame allocation \p Frame comes from, through coro.begin (which
/// coro-cleanup lowers only at the end of the pipeline), if it is a
/// __weft_frame_alloc call.
CallInst *frameAllocation(Value *Frame, Function *FrameAlloc) {
  Value *Object = getUnderlyingObject(Frame);
  if (auto *Begin = dyn_cast<IntrinsicInst>(Object);
      Begin && Begin->getIntrinsicID() == Intrinsic::coro_begin)
    Object = getUnderlyingObject(Begin->getArgOperand(1));
  auto *Alloc = dyn_cast<CallInst>(Object);
  return Alloc && Alloc->getCalledFunction() == FrameAlloc ? Alloc : nullptr;
}

} // namespace

bool foldFastCloneStolenChecks(Function &F) {
  if (F.isPresplitCoroutine())
    return false;
  Module &M = *F.getParent();
  Function *IsStolen = M.getFunction(IsStolenName);
  Function *FrameAlloc = M.getFunction(FrameAllocName);
  if (!IsStolen || !FrameAlloc)
    return false;
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I);
        CI && CI->getCalledFunction() == IsStolen &&
        frameAllocation(CI->getArgOperand(0), FrameAlloc))
      Calls.push_back(CI);
  for (CallInst *CI : Calls)
    foldToConstant(CI, ConstantInt::getFalse(CI->getContext()));
  if (!Calls.empty())
    removeDeadPaths(F);
  return !Calls.empty();
}

PreservedAnalyses EarlyStolenChecksPass::run(Function &F,
                                             FunctionAnalysisManager &) {
  return foldFastCloneStolenChecks(F) ? PreservedAnalyses::none()
                                      : PreservedAnalyses::all();
}

/// Lowers each __weft_is_stolen(frame) call. A fast clone never sees its
/// frame's `stolen` flag set: a steal makes its next pop fail, and it then
/// parks and returns through the suspend without running any more of the
/// body. So a call on a frame allocated in the same function (the fast
/// clone, or a caller it was inlined into) is false, and the slow-path
/// branches it guards fold away; elsewhere (slow clones, whose frame comes
/// in as an argument) it reads the flag. Returns the functions where
/// something folded to \p Touched.
bool lowerStolenChecks(Module &M, SmallPtrSetImpl<Function *> &Touched) {
  Function *IsStolen = M.getFunction(IsStolenName);
  if (!IsStolen)
    return false;
  Function *FrameAlloc = M.getFunction(FrameAllocName);
  SmallPtrSet<Function *, 8> Folded;
  SmallVector<CallInst *, 16> Calls;
  for (User *U : IsStolen->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getCalledFunction() == IsStolen)
      Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    Value *Frame = CI->getArgOperand(0);
    auto *Owner = dyn_cast<CallInst>(getUnderlyingObject(Frame));
    if (FrameAlloc && Owner && Owner->getCalledFunction() == FrameAlloc) {
      foldToConstant(CI, ConstantInt::getFalse(CI->getContext()));
      Folded.insert(Owner->getFunction());
      continue;
    }
    // Only the frame's current owner reads the flag, and a thief writes it
    // before it resumes the frame, so a plain load is enough.
    IRBuilder<> B(CI);
    Value *Flag = B.CreateLoad(
        B.getInt8Ty(),
        B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Frame,
                                     WEFT_FRAME_STOLEN_OFFSET, "stolen.addr"),
        "stolen");
    Value *Stolen = B.CreateICmpNE(Flag, B.getInt8(0));
    CI->replaceAllUsesWith(Stolen);
    Stolen->takeName(CI);
    CI->eraseFromParent();
  }
  IsStolen->eraseFromParent();
  for (Function *F : Folded)
    removeDeadPaths(*F);
  Touched.insert(Folded.begin(), Folded.end());
  return true;
}

} // namespace weft

