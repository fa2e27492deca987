//===- ParallelForRegion.cpp - Shaping a parallel loop's region -----------===//
//
// Before CodeExtractor moves a parallel loop into a function of its own
// (ParallelFor.cpp), the loop's blocks must form a region that only its
// start enters and only its end leaves, and each running chunk must get
// private copies of whatever is private to an iteration. These steps make
// it so; ParallelFor.cpp's header says why each is needed.
//
//===----------------------------------------------------------------------===//

#include "lower/parallel_for/ParallelFor.h"
#include "lower/parallel_for/ParallelForOutliner.h"
#include "shared/LLVMCompat.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "weft-parallel-for"

using namespace llvm;

STATISTIC(NumPrivatized, "Parent allocas privatized in a parallel loop");

namespace weft {
namespace {

/// Whether some path from the start of \p From reads \p Slot before writing
/// it, following only blocks that \p Follow accepts.
template <typename Pred>
bool readBeforeWritten(AllocaInst *Slot, BasicBlock *From, Pred Follow) {
  SmallVector<BasicBlock *, 16> Work = {From};
  SmallPtrSet<BasicBlock *, 16> Seen = {From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    bool Written = false;
    for (Instruction &I : *BB) {
      if (auto *L = dyn_cast<LoadInst>(&I); L && L->getPointerOperand() == Slot)
        return true;
      if (auto *S = dyn_cast<StoreInst>(&I);
          S && S->getPointerOperand() == Slot) {
        Written = true;
        break;
      }
    }
    if (Written)
      continue;
    for (BasicBlock *Succ : successors(BB))
      if (Follow(Succ) && Seen.insert(Succ).second)
        Work.push_back(Succ);
  }
  return false;
}

/// Whether \p Slot is used only by plain loads and stores of it, and
/// lifetime markers: no other code can reach it.
bool isUnescapedLocal(AllocaInst *Slot) {
  return all_of(Slot->users(), [&](User *U) {
    if (auto *L = dyn_cast<LoadInst>(U))
      return L->isSimple();
    if (auto *S = dyn_cast<StoreInst>(U))
      return S->isSimple() && S->getValueOperand() != Slot;
    auto *II = dyn_cast<IntrinsicInst>(U);
    return II && II->isLifetimeStartOrEnd();
  });
}

} // namespace

/// Every block reachable from the loop's start without passing its end,
/// except through the unwind edge out of the loop's catch-all handler
/// (which terminateEscapingUnwinds closes). The handler of a loop nested
/// in this one unwinds into this one's: that edge stays in the region.
bool LoopOutliner::collectRegion() {
  auto IsHandler = [&](const BasicBlock &BB) {
    return any_of(BB, [&](const Instruction &I) {
      return isMarkerCall(I, PforCaughtName, Id);
    });
  };
  Blocks.insert(Entry);
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    BasicBlock *BB = Blocks[I];
    auto *Invoke = dyn_cast<InvokeInst>(BB->getTerminator());
    bool LeavesHandler = Invoke && IsHandler(*BB);
    if (LeavesHandler)
      Escaping.push_back(Invoke);
    for (BasicBlock *Succ : successors(BB))
      if (Succ != Exit && !(LeavesHandler && Succ == Invoke->getUnwindDest()))
        Blocks.insert(Succ);
  }
  if (Blocks.count(&F.getEntryBlock()) || Blocks.count(Begin->getParent())) {
    fail("its blocks reach the code before it");
    return false;
  }
  return true;
}

/// Gives the region its own copy of each block it shares with the rest of
/// the function. Only blocks that end the program or the thread
/// (`unreachable`, such as Clang's terminate handler) can be shared; they
/// have no successors, so the copy leaves nothing else to fix.
bool LoopOutliner::cloneSharedExits() {
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 2> Copies;
  for (BasicBlock *BB : Blocks) {
    if (BB == Entry || all_of(predecessors(BB), [&](BasicBlock *P) {
          return Blocks.count(P);
        }))
      continue;
    if (!isa<UnreachableInst>(BB->getTerminator()) ||
        isa<PHINode>(BB->front())) {
      fail("its body shares code with the rest of the function");
      return false;
    }
    ValueToValueMapTy VMap;
    BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".weft", &F);
    for (Instruction &I : *Copy)
      RemapInstruction(&I, VMap,
                       RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    SmallVector<BasicBlock *, 4> Preds(predecessors(BB));
    for (BasicBlock *P : Preds)
      if (Blocks.count(P))
        P->getTerminator()->replaceSuccessorWith(BB, Copy);
    Copies.push_back({BB, Copy});
  }
  for (auto [Shared, Copy] : Copies) {
    Blocks.remove(Shared);
    Blocks.insert(Copy);
  }
  return true;
}

/// Sends the unwind edges that leave the catch-alls (collectRegion) to a
/// landing pad in the region that terminates the program.
void LoopOutliner::terminateEscapingUnwinds() {
  if (Escaping.empty())
    return;
  LLVMContext &C = M.getContext();
  BasicBlock *Terminate = BasicBlock::Create(C, "weft.pfor.terminate", &F);
  IRBuilder<> B(Terminate);
  Type *Ptr = PointerType::getUnqual(C);
  LandingPadInst *Pad =
      B.CreateLandingPad(StructType::get(Ptr, Type::getInt32Ty(C)), 1);
  Pad->addClause(ConstantPointerNull::get(PointerType::getUnqual(C)));
  FunctionCallee Terminator =
      M.getOrInsertFunction("_ZSt9terminatev", Type::getVoidTy(C));
  if (auto *Decl = dyn_cast<Function>(Terminator.getCallee())) {
    Decl->setDoesNotReturn();
    Decl->setDoesNotThrow();
  }
  B.CreateCall(Terminator);
  B.CreateUnreachable();
  for (InvokeInst *Invoke : Escaping) {
    Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
    Invoke->setUnwindDest(Terminate);
  }
  Blocks.insert(Terminate);
  // The landing pads only those edges reached are dead now; they must not
  // look like a second way into an enclosing loop's region.
  EliminateUnreachableBlocks(F);
}

/// The region must leave only through its end: no return, no unwinding,
/// no value used after it.
bool LoopOutliner::checkRegion() {
  for (BasicBlock *BB : Blocks) {
    if (isa<ReturnInst, ResumeInst, CleanupReturnInst, CatchSwitchInst>(
            BB->getTerminator())) {
      fail("its body returns or unwinds out of the loop");
      return false;
    }
    for (Instruction &I : *BB)
      for (User *U : I.users())
        if (!Blocks.count(cast<Instruction>(U)->getParent())) {
          fail("a value computed in the loop is used after it");
          return false;
        }
  }
  return true;
}

/// Replaces the loop's bounds markers with one call of each before the
/// loop: the values become inputs of the outlined function, which then
/// takes them as its lo and hi.
bool LoopOutliner::hoistBounds() {
  SmallVector<CallInst *, 4> Los, His;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB) {
      if (isMarkerCall(I, PforLoName, Id))
        Los.push_back(cast<CallInst>(&I));
      else if (isMarkerCall(I, PforHiName, Id))
        His.push_back(cast<CallInst>(&I));
    }
  if (Los.empty() || His.empty()) {
    fail("the loop's bounds are missing");
    return false;
  }
  Instruction *Before = Begin->getParent()->getTerminator();
  Lo = cast<CallInst>(Los.front()->clone());
  Lo->insertBefore(Before->getIterator());
  Hi = cast<CallInst>(His.front()->clone());
  Hi->insertBefore(Before->getIterator());
  for (auto [Calls, Hoisted] : {std::pair(&Los, Lo), std::pair(&His, Hi)})
    for (CallInst *Call : *Calls) {
      Call->replaceAllUsesWith(Hoisted);
      Call->eraseFromParent();
    }
  return true;
}

void LoopOutliner::privatizeTemporaries() {
  auto InRegion = [&](BasicBlock *BB) { return Blocks.count(BB) != 0; };
  auto Anywhere = [](BasicBlock *) { return true; };
  SmallVector<AllocaInst *, 4> Private;
  for (Instruction &I : F.getEntryBlock()) {
    auto *Slot = dyn_cast<AllocaInst>(&I);
    if (!Slot)
      continue;
    bool Inside = false, Outside = false, Plain = true;
    for (User *U : Slot->users()) {
      auto *UI = dyn_cast<Instruction>(U);
      auto *L = dyn_cast_or_null<LoadInst>(UI);
      auto *S = dyn_cast_or_null<StoreInst>(UI);
      Plain &= (L && !L->isVolatile()) ||
               (S && !S->isVolatile() && S->getValueOperand() != Slot);
      if (UI)
        (InRegion(UI->getParent()) ? Inside : Outside) = true;
    }
    if (Plain && Inside && Outside &&
        !readBeforeWritten(Slot, Entry, InRegion) &&
        !readBeforeWritten(Slot, Exit, Anywhere))
      Private.push_back(Slot);
  }
  for (AllocaInst *Slot : Private) {
    auto *Copy = cast<AllocaInst>(Slot->clone());
    Copy->insertAfter(Slot);
    Copy->setName(Slot->getName() + ".weft.private");
    Slot->replaceUsesWithIf(Copy, [&](Use &U) {
      return InRegion(cast<Instruction>(U.getUser())->getParent());
    });
    ++NumPrivatized;
  }
}

void LoopOutliner::passReadOnlyLocalsByValue() {
  Instruction *Before = Begin->getParent()->getTerminator();
  for (Instruction &I : F.getEntryBlock()) {
    auto *Slot = dyn_cast<AllocaInst>(&I);
    if (!Slot || !isUnescapedLocal(Slot))
      continue;
    SmallVector<LoadInst *, 4> Reads;
    bool Writes = false;
    for (User *U : Slot->users()) {
      auto *UI = cast<Instruction>(U);
      if (!Blocks.count(UI->getParent()))
        continue;
      auto *L = dyn_cast<LoadInst>(UI);
      if (L && L->getType() == Slot->getAllocatedType())
        Reads.push_back(L);
      else if (!isa<IntrinsicInst>(UI))
        Writes = true; // a store, or a load of another type
    }
    if (Writes || Reads.empty())
      continue;
    auto *Value = new LoadInst(Slot->getAllocatedType(), Slot,
                               Slot->getName() + ".weft.value",
                               Before->getIterator());
    for (LoadInst *L : Reads) {
      L->replaceAllUsesWith(Value);
      L->eraseFromParent();
    }
  }
}

/// Moves the parent's allocas that only the region uses to the region's
/// first block; buildChunk puts them in the new function's entry block.
void LoopOutliner::moveLocalsIntoRegion() {
  for (Instruction &I : F.getEntryBlock())
    if (auto *Slot = dyn_cast<AllocaInst>(&I);
        Slot && all_of(Slot->users(), [&](User *U) {
          auto *UI = dyn_cast<Instruction>(U);
          return UI && Blocks.count(UI->getParent());
        }))
      Locals.push_back(Slot);
  Instruction *Front = &*Entry->getFirstInsertionPt();
  for (AllocaInst *Slot : Locals)
    compat::moveBefore(Slot, Front);
}

/// CodeExtractor refuses regions with llvm.eh.typeid.for (outlining it
/// apart from its landing pads miscompiles, llvm.org/PR39545). The region
/// holds the landing pads too, so the calls are hidden behind a
/// placeholder while it is extracted.
void LoopOutliner::hideTypeIds() {
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && II->getIntrinsicID() == Intrinsic::eh_typeid_for) {
        Function *Intrinsic = II->getCalledFunction();
        FunctionCallee Placeholder = M.getOrInsertFunction(
            "weft.typeid.for.placeholder", Intrinsic->getFunctionType());
        TypeIds.push_back({II, Intrinsic});
        II->setCalledFunction(Placeholder);
      }
}

void LoopOutliner::restoreTypeIds() {
  for (auto [Call, Intrinsic] : TypeIds)
    Call->setCalledFunction(Intrinsic);
  if (Function *P = M.getFunction("weft.typeid.for.placeholder");
      P && P->use_empty())
    P->eraseFromParent();
}

} // namespace weft
