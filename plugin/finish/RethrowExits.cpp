//===- RethrowExits.cpp - Let a fast clone's rethrows reach its return ----===//
//
// A fast clone of C++ code ends its exceptional paths with the runtime's
// rethrow, which never returns:
//
//   lpad:   %e = landingpad ... catch ptr null
//           call @__weft_catch(%frame, %e)
//           call @__weft_rethrow(%frame)
//           unreachable
//
// The backend's shrink-wrapping must place the restore of the callee-saved
// registers in a block that post-dominates every landing pad and every
// block using those registers, and a block that ends in `unreachable`
// post-dominates nothing but itself: it then saves the registers in the
// entry block, on every path, and a leaf of fib (half of its calls) pays
// for two pushes, a stack adjustment and their undoing that its own code
// never needs.
//
// So here, at the very end of the pipeline, each such `unreachable` of a
// fast clone becomes a branch to the function's return, with a zero value:
//
//           call @__weft_rethrow(%frame)
//           br %return                    ; ret phi: [ 0, %lpad ], ...
//
// The branch is never taken, so the code means what it meant; the backend
// can now keep the prologue on the paths that spawn. Nothing optimises the
// IR after this (a later pass could turn the edge back into `unreachable`,
// as SimplifyCFG would where a zero is not a valid return value), and
// functions with more than one return block are left alone.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace weft {
namespace {

bool isRethrow(const Instruction *I) {
  const auto *Call = dyn_cast_or_null<CallBase>(I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee &&
         (Callee->getName() == runtimeName(RuntimeFn::Rethrow) ||
          Callee->getName() == runtimeName(RuntimeFn::RethrowAfterSync));
}

/// Whether \p BB ends the path of a rethrow: its `unreachable` follows a
/// call of the rethrow, or it is the normal destination of an invoke of it.
bool endsAtRethrow(BasicBlock &BB) {
  if (!isa<UnreachableInst>(BB.getTerminator()))
    return false;
  if (isRethrow(BB.getTerminator()->getPrevNode()))
    return true;
  BasicBlock *Pred = BB.getSinglePredecessor();
  return &BB.front() == BB.getTerminator() && Pred &&
         isa<InvokeInst>(Pred->getTerminator()) &&
         isRethrow(Pred->getTerminator());
}

/// The function's only `ret`, if it has exactly one.
ReturnInst *onlyReturn(Function &F) {
  ReturnInst *Found = nullptr;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      if (Found)
        return nullptr;
      Found = Ret;
    }
  return Found;
}

/// The phi of \p Ret's block that \p Ret returns, made if needed; null if
/// the returned value is computed in that block after its phis.
PHINode *returnedPhi(ReturnInst *Ret) {
  BasicBlock *Exit = Ret->getParent();
  Value *V = Ret->getReturnValue();
  if (auto *Phi = dyn_cast<PHINode>(V); Phi && Phi->getParent() == Exit)
    return Phi;
  if (auto *I = dyn_cast<Instruction>(V); I && I->getParent() == Exit)
    return nullptr;
  auto *Phi = PHINode::Create(V->getType(), 4, "weft.ret");
  Phi->insertBefore(Exit->begin());
  for (BasicBlock *Pred : predecessors(Exit))
    Phi->addIncoming(V, Pred);
  Ret->setOperand(0, Phi);
  return Phi;
}

} // namespace

bool routeRethrowsToReturn(Function &F) {
  SmallVector<BasicBlock *, 4> Ends;
  for (BasicBlock &BB : F)
    if (endsAtRethrow(BB))
      Ends.push_back(&BB);
  ReturnInst *Ret = onlyReturn(F);
  if (Ends.empty() || !Ret || Ret->getParent()->isEntryBlock())
    return false;
  BasicBlock *Exit = Ret->getParent();
  PHINode *Phi = nullptr;
  if (Ret->getReturnValue() && !(Phi = returnedPhi(Ret))) {
    // The value is computed in the return's block (a sum with the
    // accumulator of a loop, SpawnTailCalls.cpp): the return gets a block
    // of its own, where the phi can be.
    Exit = SplitBlock(Exit, Ret);
    Phi = returnedPhi(Ret);
  }
  // The returned value, and any other phi of the return's block (a loop's
  // count of the syncs it owes, SpawnTailCalls.cpp), take zero on the new
  // edges, which are never taken.
  SmallVector<PHINode *, 2> Phis;
  for (PHINode &P : Exit->phis())
    Phis.push_back(&P);
  for (BasicBlock *BB : Ends) {
    BB->getTerminator()->eraseFromParent();
    BranchInst::Create(Exit, BB);
    for (PHINode *P : Phis)
      P->addIncoming(Constant::getNullValue(P->getType()), BB);
  }
  return true;
}

} // namespace weft
