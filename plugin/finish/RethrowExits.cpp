//===- RethrowExits.cpp - A fast clone's rethrows: fewer, and at its return ===//
//
// A fast clone of C++ code ends its exceptional paths with the runtime's
// rethrow, which never returns:
//
//   lpad:   %e = landingpad ... catch ptr null
//           call @__weft_catch(%frame, %e)
//           call @__weft_rethrow(%frame)
//           unreachable
//
// Most calls that unwind to such a pad need not. Where no landing pad
// reaches the call, the frame holds no exception (one caught into it is
// rethrown before any other call), so catching into it and rethrowing is
// plain propagation: the invoke becomes a call (demoteRethrowingInvokes,
// as soon as the frame is an alloca, SinkFrameInit.cpp). A call below a
// spawn's cutoff that unwound to the pad kept the frame's header in use on
// a path that never spawns, and its initialisation with it.
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
// as SimplifyCFG would where a zero is not a valid return value). A
// function with several returns gets one first, for the same reason: the
// restore must post-dominate every block that needs the prologue. The
// leaf's path gets its own again after (separateLeafReturns), so that the
// save need not dominate it.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "lower/ThreadLocals.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "weft-rethrow-exits"

using namespace llvm;

STATISTIC(NumDemoted, "Invokes whose landing pad only rethrew made calls");

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

/// Whether \p V is a thread-local's address, as the fast path's inlining
/// leaves it (lower/ThreadLocals.cpp).
bool computesThreadLocalAddress(const Value *V) {
  const auto *Call = dyn_cast<CallInst>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && (isHiddenThreadLocalAddress(*Callee) ||
                    Callee->getIntrinsicID() == Intrinsic::threadlocal_address);
}

/// Whether \p Pad only catches the exception into \p Frame and rethrows
/// it: `landingpad catch ptr null`, `__weft_catch`, then (through plain
/// branches) `__weft_rethrow` and `unreachable`. Before the catch, a
/// pedigree build's pad also makes the function's pedigree frame the
/// thread's again (the hook's call, or its inlined store to the
/// thread-local), loading it from the frame and maybe spilling it there
/// again, which is dead with the rethrow.
bool onlyRethrows(BasicBlock *Pad, AllocaInst *Frame) {
  auto *LP = dyn_cast<LandingPadInst>(&*Pad->getFirstNonPHIIt());
  if (!LP || LP->isCleanup() || LP->getNumClauses() != 1 || !LP->isCatch(0) ||
      !isa<ConstantPointerNull>(LP->getClause(0)))
    return false;
  bool Caught = false;
  for (BasicBlock *BB = Pad; BB;) {
    for (Instruction &I : *BB) {
      if (&I == LP || isa<ExtractValueInst>(I) || isa<PHINode>(I))
        continue;
      auto *Call = dyn_cast<CallInst>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      // A pedigree build's pad makes the function's frame the thread's
      // again (lower/Pedigrees.cpp). What reaches it from the function's own
      // call already has: every way out of the function leaves its frame,
      // shared with its caller's, the thread's.
      if (Callee && !Caught &&
          Callee->getName() == runtimeName(RuntimeFn::PedigreeResume))
        continue;
      if (auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
        continue;
      if (auto *Store = dyn_cast<StoreInst>(&I);
          Store && Store->isSimple() && !Caught &&
          (getUnderlyingObject(Store->getPointerOperand()) == Frame ||
           computesThreadLocalAddress(Store->getPointerOperand())))
        continue;
      if (computesThreadLocalAddress(&I))
        continue;
      if (isa<GetElementPtrInst>(I))
        continue;
      if (Callee && Callee->getName() == runtimeName(RuntimeFn::Catch) && !Caught) {
        Caught = true;
        continue;
      }
      if (Callee && Callee->getName() == runtimeName(RuntimeFn::Rethrow) && Caught)
        return isa<UnreachableInst>(Call->getNextNode());
      if (auto *Br = dyn_cast<BranchInst>(&I); Br && Br->isUnconditional()) {
        BB = Br->getSuccessor(0);
        break;
      }
      return false;
    }
  }
  return false;
}

/// The function's one `ret`, made of its several if it has more (each
/// becomes a branch to a block of its own, which returns a phi of what they
/// returned); null if it has none, or a return must stay where it is (after
/// a musttail call).
ReturnInst *oneReturn(Function &F) {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  if (Returns.size() <= 1)
    return Returns.empty() ? nullptr : Returns.front();
  if (any_of(Returns, [](ReturnInst *Ret) {
        auto *Call = dyn_cast_or_null<CallInst>(Ret->getPrevNode());
        return Call && Call->isMustTailCall();
      }))
    return nullptr;
  auto *Exit = BasicBlock::Create(F.getContext(), "weft.return", &F);
  PHINode *Phi = nullptr;
  if (Type *Ty = F.getReturnType(); !Ty->isVoidTy())
    Phi = PHINode::Create(Ty, Returns.size(), "weft.ret", Exit);
  auto *One = ReturnInst::Create(F.getContext(), Phi, Exit);
  for (ReturnInst *Ret : Returns) {
    if (Phi)
      Phi->addIncoming(Ret->getReturnValue(), Ret->getParent());
    BranchInst::Create(Exit, Ret->getParent());
    Ret->eraseFromParent();
  }
  return One;
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

/// An invoke that no landing pad reaches, whose landing pad only rethrows,
/// becomes a call: on its paths the frame holds no exception (one caught
/// into it is rethrown before any other call), so catching into the frame
/// and rethrowing is propagation.
bool demoteRethrowingInvokes(Function &F, AllocaInst *Frame) {
  SmallVector<Instruction *, 8> Pads;
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : F) {
    if (BB.isLandingPad())
      Pads.push_back(&*BB.getFirstNonPHIIt());
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      Invokes.push_back(II);
  }
  DominatorTree DT(F);
  bool Changed = false;
  for (InvokeInst *II : Invokes) {
    if (!onlyRethrows(II->getUnwindDest(), Frame))
      continue;
    if (any_of(Pads, [&](Instruction *Pad) {
          return isPotentiallyReachable(Pad, II, nullptr, &DT);
        }))
      continue;
    changeToCall(II);
    ++NumDemoted;
    Changed = true;
  }
  if (Changed)
    removeUnreachableBlocks(F);
  return Changed;
}

bool routeRethrowsToReturn(Function &F) {
  SmallVector<BasicBlock *, 4> Ends;
  for (BasicBlock &BB : F)
    if (endsAtRethrow(BB))
      Ends.push_back(&BB);
  if (Ends.empty())
    return false;
  ReturnInst *Ret = oneReturn(F);
  if (!Ret || Ret->getParent()->isEntryBlock())
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
  separateLeafReturns(F);
  return true;
}

} // namespace weft
