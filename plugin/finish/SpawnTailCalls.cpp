//===- SpawnTailCalls.cpp - A fast clone's last call as a loop ------------===//
//
// A divide-and-conquer function spawns all but its last recursive call and
// makes that one itself, and in the serial elision LLVM turns that call,
// when the function ends with it, into a loop (tail-recursion elimination,
// with an accumulator for fib's `x + y`). In the fast clone it cannot: the
// frame is an alloca whose address the push published, so as far as LLVM
// knows the recursive call may read it, and a loop would reuse it under
// the call's feet:
//
//   fib:                                  fib:
//     ...push %frame                        %acc = 0
//     %x = call @fib(n - 1)                loop:                ; n >= 2
//     store volatile %x, %frame.x            ...push %frame
//     ...pop, else to the stolen exit        %x = call @fib(n - 1)
//     %n2 = load %frame.n          ==>       store volatile %x, %frame.x
//     %y = invoke @fib(%n2 - 2)              ...pop, else to the stolen exit
//         unwind %catch.rethrow              %acc += %x
//     %x2 = load %frame.x                    %n = load %frame.n - 2
//     ret %x2 + %y                           br %n < 2, %done, %loop
//                                          done:
//                                            ret %acc + %n
//
// But a fast clone that is past its pop owns its frame again: the pop
// succeeded, no thief holds it, and nothing of the program does unless the
// program itself took the address of a slot. So where the frame is private
// (every use of it is an access of its own slots or one of the runtime's
// frame calls, or hands a pointer to the program only on a path that makes
// no more recursive calls, as a leaf's temporaries do; FinishPass checks
// this once the stolen checks are folded, before the fast path is inlined) the
// frame is dead at a recursive call made after the pops, once nothing
// reads it after the call. Three rewrites make that visible:
//
//  - A load of the frame right after the function's own call moves above
//    it: that call cannot write the frame, which is private and, outside a
//    spawn's window, not published either.
//  - The call's landing pad, when it only catches into the frame and
//    rethrows (`__weft_catch`, `__weft_rethrow`), means propagation on the
//    paths that no landing pad reaches, where the frame holds no exception:
//    the invoke becomes a call (RethrowExits.cpp; in the pipeline this was
//    done already, when the frame became an alloca).
//  - LLVM's tail-recursion elimination runs with the frame hidden from it
//    (a call of a placeholder instead of the alloca; the `tail` marks it
//    would then add come off again), and the alloca comes back in the entry
//    block, one frame for every round of the loop.
//
// The loop is then fitted to the fast clone:
//
//  - Its first round is peeled, so that a leaf leaves before any of it,
//    and the frame's constant initialisation (resume pointer, zero header,
//    a resume index that only one spawn point writes) goes from the loop:
//    the first round made it and no one but a thief writes those bytes.
//  - Last, after the clean-up and the rethrows' routing, when no pass is
//    left to undo it: the leaf's path gets a return of its own, so that
//    shrink-wrapping keeps the prologue off it; the accumulator lives in
//    the frame's destroy slot, which a fast clone never uses (SinkFrameInit
//    drops its store), and the header's phis of reloaded frame slots become
//    reloads. Held in callee-saved registers, they would grow the stack
//    frame of every level of the recursion (fib's is 128 bytes, two
//    registers saved; 16 bytes more cost it 8%).
//
// A round that finds its frame stolen leaves through the stolen exit as
// before, returning what the slow clone left plus the accumulator.
//
// Built with pedigrees, the call is followed by the sync's count of the
// function's pedigree frame (lower/Pedigrees.cpp), which would keep it
// from being the last thing before the return. Each round would count its
// sync after every round below it had returned, with nothing in between
// that reads the count: so the loop counts the rounds it went round, in a
// register, and adds them to the frame's rank where it returns, past the
// stolen exit too. A round that throws counts nothing, as the calls did
// not. The sync's call, set aside before the fast path is inlined, stands
// as a marker until then:
//
//   %y = call @fib(%n2)                 loop:
//   call @__weft_pedigree_sync(%ped)       %syncs = phi [0, %entry], [%s1, ..]
//   ret %x + %y                  ==>       ...
//                                          %s1 = add %syncs, 1
//                                          br %n < 2, %done, %loop
//                                        done:
//                                          call @__weft_pedigree_syncs(%syncs)
//                                          ret %acc + %n
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/Markers.h"
#include "shared/RuntimeABI.h"
#include "shared/LLVMCompat.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Scalar/TailRecursionElimination.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopPeel.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/IR/Verifier.h"

#define DEBUG_TYPE "weft-spawn-tail-calls"

using namespace llvm;

STATISTIC(NumLoops, "Fast clones whose last recursive call became a loop");
STATISTIC(NumHoisted, "Loads of the frame moved above the call before them");

namespace weft {
namespace {

/// Marks the branches back to the loop's header, so that the last step
/// finds the loop that this file made among the program's own.
constexpr const char *TailLoopMD = "weft.tail.loop";

/// Stands for a pedigree build's count of a sync that directly follows a
/// call of the function itself (setAsideTailSyncs), between the fast path's
/// inlining and the loop. It touches no memory that the program or the
/// frame holds, as the count it stands for does not (the count is a
/// pedigree frame's, which only the runtime and its hooks reach), so the
/// clean-up forwards the frame's slots across it.
constexpr const char *TailSyncName = "weft.tail.sync";

Function *tailSyncMarker(Module &M) {
  auto *Marker = cast<Function>(
      M.getOrInsertFunction(TailSyncName,
                            FunctionType::get(Type::getVoidTy(M.getContext()),
                                              false))
          .getCallee());
  Marker->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  Marker->setDoesNotThrow();
  Marker->setWillReturn();
  return Marker;
}

/// The call of its own function that \p I follows: walking back from it
/// past address arithmetic and simple loads and stores, into a block from
/// the end of the block before (a plain branch, or the invoke whose normal
/// destination it is). Null if another call or anything else comes first.
CallBase *selfCallBefore(Instruction *I) {
  Function *F = I->getFunction();
  while (true) {
    if (Instruction *Prev = I->getPrevNode()) {
      I = Prev;
      if (auto *Call = dyn_cast<CallInst>(I))
        return Call->getCalledFunction() == F ? Call : nullptr;
      auto *Load = dyn_cast<LoadInst>(I);
      auto *Store = dyn_cast<StoreInst>(I);
      if (isa<GetElementPtrInst>(I) || (Load && Load->isSimple()) ||
          (Store && Store->isSimple()))
        continue;
      return nullptr;
    }
    BasicBlock *Pred = I->getParent()->getSinglePredecessor();
    if (!Pred)
      return nullptr;
    if (auto *Invoke = dyn_cast<InvokeInst>(Pred->getTerminator()))
      return Invoke->getCalledFunction() == F &&
                     Invoke->getNormalDest() == I->getParent()
                 ? Invoke
                 : nullptr;
    auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
    if (!Br || Br->isConditional())
      return nullptr;
    I = Br;
  }
}

/// The markers that setAsideTailSyncs left in \p F.
SmallVector<CallInst *, 2> tailSyncs(Function &F) {
  SmallVector<CallInst *, 2> Markers;
  if (Function *Marker = F.getParent()->getFunction(TailSyncName))
    for (User *U : Marker->users())
      if (auto *Call = dyn_cast<CallInst>(U); Call && Call->getFunction() == &F)
        Markers.push_back(Call);
  return Markers;
}

/// A sync's count again in place of each marker left in \p F, as a count
/// of the thread's frame, which is the function's there: a call returned
/// just before, and a call leaves its caller's frame the thread's.
bool restoreTailSyncs(Function &F) {
  SmallVector<CallInst *, 2> Markers = tailSyncs(F);
  if (Markers.empty())
    return false;
  FunctionCallee Count =
      getRuntimeFunction(*F.getParent(), RuntimeFn::PedigreeSyncs);
  auto *One = ConstantInt::get(
      cast<Function>(Count.getCallee())->getArg(0)->getType(), 1);
  for (CallInst *Marker : Markers) {
    CallInst::Create(Count, {One}, "", Marker->getIterator())
        ->setDebugLoc(Marker->getDebugLoc());
    Marker->eraseFromParent();
  }
  return true;
}

/// A marker raised above the call that it followed (raiseTailSyncs).
struct TailSync {
  CallInst *Marker;
  WeakVH Call; // null once tail-recursion elimination made it the loop
};

/// Each marker of \p F moves just above the call it follows, so that
/// nothing stands between that call and the return; those whose call
/// stays a call go back after it (lowerTailSyncs).
SmallVector<TailSync, 2> raiseTailSyncs(Function &F) {
  SmallVector<TailSync, 2> Raised;
  for (CallInst *Marker : tailSyncs(F)) {
    auto *Call = dyn_cast_or_null<CallInst>(selfCallBefore(Marker));
    if (!Call)
      continue; // an invoke that kept its landing pad: no loop there
    compat::moveBefore(Marker, Call);
    Raised.push_back({Marker, WeakVH(Call)});
  }
  return Raised;
}

/// After tail-recursion elimination made \p Header's loop (or did not, if
/// null): a raised marker whose call became a branch back counts one more
/// round in the header's count of the syncs the loop owes, which each
/// return pays (__weft_pedigree_syncs); any other goes back after its call.
void lowerTailSyncs(Function &F, BasicBlock *Header,
                    ArrayRef<TailSync> Raised) {
  SmallVector<CallInst *, 2> Counted;
  for (const TailSync &Sync : Raised) {
    if (auto *Call = cast_or_null<CallInst>(Sync.Call)) {
      compat::moveBefore(Sync.Marker, Call->getNextNode());
      continue;
    }
    assert(Header && is_contained(successors(Sync.Marker->getParent()), Header) &&
           "a call that went became a branch back to the header");
    Counted.push_back(Sync.Marker);
  }
  if (Counted.empty())
    return;
  FunctionCallee Pay =
      getRuntimeFunction(*F.getParent(), RuntimeFn::PedigreeSyncs);
  auto *Ty = cast<IntegerType>(cast<Function>(Pay.getCallee())->getArg(0)->getType());
  auto *Owed = PHINode::Create(Ty, 2, "weft.tail.syncs");
  Owed->insertInto(Header, Header->begin());
  for (BasicBlock *Pred : predecessors(Header)) {
    Value *In = Owed;
    if (Pred == &F.getEntryBlock())
      In = ConstantInt::get(Ty, 0);
    else if (CallInst **Marker = find_if(Counted, [&](CallInst *M) {
               return M->getParent() == Pred;
             });
             Marker != Counted.end())
      In = BinaryOperator::CreateAdd(Owed, ConstantInt::get(Ty, 1), "",
                                     Pred->getTerminator()->getIterator());
    Owed->addIncoming(In, Pred);
  }
  for (CallInst *Marker : Counted)
    Marker->eraseFromParent();
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      CallInst::Create(Pay, {Owed}, "", Ret->getIterator())
          ->setDebugLoc(Ret->getDebugLoc());
}

/// Whether \p Phi is a loop's count of the syncs it owes (lowerTailSyncs):
/// it and what is computed from it only go round, or to the payment.
bool countsTailSyncs(PHINode &Phi) {
  SmallVector<Value *, 8> Work = {&Phi};
  SmallPtrSet<Value *, 8> Seen = {&Phi};
  while (!Work.empty())
    for (User *U : Work.pop_back_val()->users()) {
      if (auto *Call = dyn_cast<CallInst>(U)) {
        const Function *Callee = Call->getCalledFunction();
        if (!Callee ||
            Callee->getName() != runtimeName(RuntimeFn::PedigreeSyncs))
          return false;
        continue;
      }
      auto *Add = dyn_cast<BinaryOperator>(U);
      if (!isa<PHINode>(U) &&
          !(Add && Add->getOpcode() == Instruction::Add &&
            isa<ConstantInt>(Add->getOperand(1))))
        return false;
      if (Seen.insert(U).second)
        Work.push_back(U);
    }
  return true;
}

/// The runtime's calls that take a frame and keep no pointer into its
/// slots: they read or write its header, or run its slow clone.
bool isFrameCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  StringRef Name = Callee->getName();
  for (RuntimeFn Fn : {RuntimeFn::Push, RuntimeFn::SpawnStolen,
                       RuntimeFn::SyncSlow, RuntimeFn::FrameComplete,
                       RuntimeFn::Catch, RuntimeFn::Rethrow,
                       RuntimeFn::RethrowAfterSync})
    if (Name == runtimeName(Fn))
      return true;
  return Name == FrameFreeName || Name == IsStolenName;
}

/// Whether the function's own calls are all out of reach of \p From: a
/// pointer into the frame that escapes there cannot outlive the round.
bool reachesNoSelfCall(Instruction *From) {
  Function &F = *From->getFunction();
  for (User *U : F.users())
    if (auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getFunction() == &F && Call->getCalledFunction() == &F &&
        isPotentiallyReachable(From, Call))
      return false;
  return true;
}

/// Whether every use of \p Frame, through address arithmetic, reads or
/// writes its slots or hands it to the runtime's frame calls, except where
/// the pointer escapes to the program (stored, or passed to one of its
/// functions) on a path that makes no more recursive calls: a leaf's
/// temporaries, say, which the last round can only reach on its way out.
bool frameStaysPrivate(Value *Frame) {
  SmallVector<Value *, 16> Work = {Frame};
  SmallPtrSet<Value *, 16> Seen = {Frame};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      auto *I = cast<Instruction>(U.getUser());
      // Pointers into the frame, followed.
      if (isa<GetElementPtrInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      // Reading it, or comparing it (a string's test for its own buffer).
      if (isa<LoadInst>(I) || isa<ICmpInst>(I))
        continue;
      if (isa<StoreInst>(I) &&
          U.getOperandNo() == StoreInst::getPointerOperandIndex())
        continue;
      if (isa<MemIntrinsic>(I) || isEscapeMarker(*I))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(I); II && II->isLifetimeStartOrEnd())
        continue;
      if (auto *Call = dyn_cast<CallBase>(I); Call && isFrameCall(*Call))
        continue;
      // Stored as a value, passed to the program, or anything else.
      if ((isa<StoreInst>(I) || isa<CallBase>(I)) && reachesNoSelfCall(I))
        continue;
      return false;
    }
  }
  return true;
}

/// Whether \p F calls itself directly.
bool callsItself(Function &F) {
  for (User *U : F.users())
    if (auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getFunction() == &F && Call->getCalledFunction() == &F)
      return true;
  return false;
}

/// The frame of fast clone \p F: the alloca under the frame argument of its
/// stolen exit (every fast clone with a spawn has one).
AllocaInst *findFrame(Function &F) {
  AllocaInst *Frame = nullptr;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      const Function *Callee = Call->getCalledFunction();
      if (!Callee || Callee->getName() != runtimeName(RuntimeFn::SpawnStolen))
        continue;
      auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(Call->getArgOperand(0)));
      if (!A || (Frame && Frame != A))
        return nullptr;
      Frame = A;
    }
  return Frame;
}

/// The constant byte offset of \p Ptr into \p Frame, if it has one.
std::optional<int64_t> offsetInFrame(Value *Ptr, AllocaInst *Frame,
                                     const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  if (Base != Frame)
    return std::nullopt;
  return Offset.getSExtValue();
}

/// The call that \p Load directly follows: walking back from it, through
/// blocks entered only from the block before, past nothing that touches
/// memory or has another effect. Null if there is none.
CallInst *callJustBefore(LoadInst *Load) {
  Instruction *I = Load;
  while (true) {
    if (Instruction *Prev = I->getPrevNode()) {
      I = Prev;
    } else {
      BasicBlock *Pred = I->getParent()->getSinglePredecessor();
      auto *Br = Pred ? dyn_cast<BranchInst>(Pred->getTerminator()) : nullptr;
      if (!Br || Br->isConditional())
        return nullptr;
      I = Br;
      continue;
    }
    if (auto *Call = dyn_cast<CallInst>(I))
      return Call;
    if (I->mayReadOrWriteMemory() || I->mayHaveSideEffects() ||
        isa<PHINode>(I))
      return nullptr;
  }
}

/// A load of the frame right after a call of the program's reads a slot
/// that the call cannot write: the frame is private, and outside a spawn's
/// window (the spawned call is followed by the store of its result or by
/// the pop, never directly by a load) it is not published either. Such
/// loads move above their call, so that tail-recursion elimination finds
/// nothing but the sum between the call and the return.
bool hoistFrameLoadsAboveCalls(Function &F, AllocaInst *Frame) {
  SmallVector<std::pair<LoadInst *, CallInst *>, 8> Moves;
  for (Instruction &I : instructions(F)) {
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load || !Load->isSimple() ||
        getUnderlyingObject(Load->getPointerOperand()) != Frame)
      continue;
    // Only above the function's own calls: what the loop needs.
    CallInst *Call = callJustBefore(Load);
    if (!Call || Call->getCalledFunction() != &F)
      continue;
    Moves.push_back({Load, Call});
  }
  DominatorTree DT(F);
  for (auto [Load, Call] : Moves) {
    // Its address, computed from the frame, moves along where needed.
    SmallVector<Instruction *, 4> Address;
    for (Value *V = Load->getPointerOperand();
         auto *GEP = dyn_cast<GetElementPtrInst>(V); V = GEP->getPointerOperand())
      Address.push_back(GEP);
    for (Instruction *A : reverse(Address))
      if (!DT.dominates(A, Call))
        compat::moveBefore(A, Call);
    compat::moveBefore(Load, Call);
    ++NumHoisted;
  }
  return !Moves.empty();
}

/// The allocas that every round of the loop may share: the frame, and the
/// statement temporaries (PlaceDynamicAllocas.cpp), each of which lives
/// for one spawned statement, over by the time of any call that is not
/// spawned, and so dead at the call that becomes the loop (a pedigree
/// build's child frame is one).
SmallVector<AllocaInst *, 2> sharedAllocas(Function &F, AllocaInst *Frame) {
  SmallVector<AllocaInst *, 2> Shared = {Frame};
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I);
        AI && AI != Frame && AI->getMetadata(StatementTemporaryMD))
      Shared.push_back(AI);
  return Shared;
}

/// Runs LLVM's tail-recursion elimination on \p F with \p Frame and the
/// other allocas the rounds share replaced by placeholder calls, and puts
/// them back in the entry block. Returns the loop's header, the old entry
/// block, if it made a loop.
BasicBlock *eliminateTailRecursion(Function &F, AllocaInst *Frame,
                                   FunctionAnalysisManager &FAM) {
  Module &M = *F.getParent();
  SmallVector<AllocaInst *, 2> Shared = sharedAllocas(F, Frame);
  SmallVector<std::pair<AllocaInst *, Function *>, 2> Placeholders;
  for (AllocaInst *AI : Shared) {
    auto *Placeholder = Function::Create(
        FunctionType::get(AI->getType(), false), GlobalValue::ExternalLinkage,
        "weft.tail.frame", M);
    auto *Hidden = CallInst::Create(Placeholder, "", AI->getIterator());
    AI->replaceAllUsesWith(Hidden);
    AI->removeFromParent();
    Placeholders.push_back({AI, Placeholder});
  }

  FAM.invalidate(F, PreservedAnalyses::none());
  FunctionPassManager Simplify;
  Simplify.addPass(SimplifyCFGPass());
  FAM.invalidate(F, Simplify.run(F, FAM));
  // TailCallElimPass keeps the entry block as the loop's header and puts a
  // new entry block before it. It also marks `tail` the calls it finds
  // touch no alloca of the caller, and with the frame hidden that would be
  // every call, those that the frame is handed to too: the marks it adds
  // come off again.
  BasicBlock *OldEntry = &F.getEntryBlock();
  SmallPtrSet<CallInst *, 32> WasTail;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->isTailCall())
      WasTail.insert(Call);
  FunctionPassManager Eliminate;
  Eliminate.addPass(TailCallElimPass());
  FAM.invalidate(F, Eliminate.run(F, FAM));
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I);
        Call && Call->getTailCallKind() == CallInst::TCK_Tail &&
        !WasTail.count(Call))
      Call->setTailCall(false);
  BasicBlock *Header = &F.getEntryBlock() != OldEntry ? OldEntry : nullptr;
  if (Header)
    for (BasicBlock *Pred : predecessors(Header))
      if (Pred != &F.getEntryBlock())
        Pred->getTerminator()->setMetadata(
            TailLoopMD, MDNode::get(F.getContext(), {}));

  for (auto [AI, Placeholder] : Placeholders) {
    AI->insertInto(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
    SmallVector<CallInst *, 2> Calls;
    for (User *U : Placeholder->users())
      Calls.push_back(cast<CallInst>(U));
    for (CallInst *Call : Calls) {
      Call->replaceAllUsesWith(AI);
      Call->eraseFromParent();
    }
    Placeholder->eraseFromParent();
  }
  return Header;
}

/// A store of a constant to the frame: the resume pointer, the header's
/// zeros, a resume index.
bool isConstantInit(Instruction &I, AllocaInst *Frame) {
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isSimple() && isa<Constant>(Store->getValueOperand()) &&
           getUnderlyingObject(Store->getPointerOperand()) == Frame;
  if (auto *Set = dyn_cast<MemSetInst>(&I))
    return !Set->isVolatile() && isa<Constant>(Set->getValue()) &&
           isa<ConstantInt>(Set->getLength()) &&
           getUnderlyingObject(Set->getDest()) == Frame;
  return false;
}

/// The bytes of the frame that \p I (a store or a memory intrinsic into
/// it) writes: everything if the offset or the length is unknown.
std::pair<int64_t, int64_t> bytesWritten(Instruction &I, AllocaInst *Frame) {
  const DataLayout &DL = I.getDataLayout();
  std::optional<int64_t> Offset;
  int64_t Size = -1;
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    Offset = offsetInFrame(Store->getPointerOperand(), Frame, DL);
    Size = DL.getTypeStoreSize(Store->getValueOperand()->getType())
               .getFixedValue();
  } else if (auto *Mem = dyn_cast<MemIntrinsic>(&I)) {
    Offset = offsetInFrame(Mem->getDest(), Frame, DL);
    if (auto *Length = dyn_cast<ConstantInt>(Mem->getLength()))
      Size = Length->getZExtValue();
  }
  if (!Offset || Size < 0)
    return {0, INT64_MAX};
  return {*Offset, *Offset + Size};
}

/// Whether \p Peeled, the peeled first round's copy of the loop's constant
/// store \p Init, writes the same constant: peeling folds a loop phi that
/// is the same on every back edge (an argument that each tail call passes
/// as a literal, `f(x, 1)`) into that constant in the loop, while the
/// first round's copy still stores the function's own argument.
bool sameConstantWrite(Instruction &Init, Instruction &Peeled) {
  if (auto *Store = dyn_cast<StoreInst>(&Init)) {
    auto *Copy = dyn_cast<StoreInst>(&Peeled);
    return Copy && Copy->getValueOperand() == Store->getValueOperand();
  }
  auto *Set = cast<MemSetInst>(&Init);
  auto *Copy = dyn_cast<MemSetInst>(&Peeled);
  return Copy && Copy->getValue() == Set->getValue() &&
         Copy->getLength() == Set->getLength();
}

/// Drops from loop \p L each constant store to the frame that its peeled
/// first round (\p VMap maps the loop's instructions to their copies there)
/// made too, with the same constant and on every way into the loop, when
/// nothing else in \p F writes those bytes: past a successful pop nothing
/// but the function has written the frame, so the bytes still hold the
/// constant in every later round. A resume index that differs from one
/// spawn to the next is written by several stores and stays.
bool dropRepeatedInits(Function &F, Loop &L, AllocaInst *Frame,
                       ValueToValueMapTy &VMap, DominatorTree &DT) {
  SmallVector<BasicBlock *, 4> Entries;
  for (BasicBlock *Pred : predecessors(L.getHeader()))
    if (!L.contains(Pred))
      Entries.push_back(Pred);
  auto everyEntryAfter = [&](Instruction *Peeled) {
    return all_of(Entries, [&](BasicBlock *Entry) {
      return DT.dominates(Peeled, Entry->getTerminator());
    });
  };
  SmallVector<Instruction *, 8> Inits;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isConstantInit(I, Frame))
        if (auto *Peeled = dyn_cast_or_null<Instruction>(VMap.lookup(&I));
            Peeled && sameConstantWrite(I, *Peeled) && everyEntryAfter(Peeled))
          Inits.push_back(&I);
  // The function's stores and memory intrinsics into the frame.
  SmallVector<Instruction *, 32> Writes;
  for (Instruction &I : instructions(F)) {
    Value *Dest = nullptr;
    if (auto *Store = dyn_cast<StoreInst>(&I))
      Dest = Store->getPointerOperand();
    else if (auto *Mem = dyn_cast<MemIntrinsic>(&I))
      Dest = Mem->getDest();
    if (Dest && getUnderlyingObject(Dest) == Frame)
      Writes.push_back(&I);
  }
  SmallVector<Instruction *, 8> Repeated;
  for (Instruction *Init : Inits) {
    auto *Peeled = cast<Instruction>(VMap.lookup(Init));
    auto [Begin, End] = bytesWritten(*Init, Frame);
    if (all_of(Writes, [&](Instruction *W) {
          if (W == Init || W == Peeled)
            return true;
          auto [B, E] = bytesWritten(*W, Frame);
          return E <= Begin || End <= B;
        }))
      Repeated.push_back(Init);
  }
  for (Instruction *Init : Repeated)
    Init->eraseFromParent();
  return !Repeated.empty();
}

/// The blocks from \p BB to a return through unconditional branches, or
/// none if that path branches or leaves otherwise.
SmallVector<BasicBlock *, 4> pathToReturn(BasicBlock *BB) {
  SmallVector<BasicBlock *, 4> Path;
  while (BB && Path.size() < 4) {
    Path.push_back(BB);
    Instruction *End = BB->getTerminator();
    if (isa<ReturnInst>(End))
      return Path;
    auto *Br = dyn_cast<BranchInst>(End);
    BB = Br && Br->isUnconditional() ? Br->getSuccessor(0) : nullptr;
  }
  return {};
}

/// Gives the edge from \p Pred a copy of its own of \p Path (a block and
/// the plain branches from it to a return), in one block, with each phi
/// replaced by what it takes from the block before.
void duplicatePath(ArrayRef<BasicBlock *> Path, BasicBlock *Pred) {
  BasicBlock *Copy = BasicBlock::Create(Pred->getContext(), "",
                                        Pred->getParent(), Path.front());
  ValueToValueMapTy VMap;
  BasicBlock *From = Pred;
  for (BasicBlock *BB : Path) {
    for (Instruction &I : *BB) {
      if (auto *Phi = dyn_cast<PHINode>(&I)) {
        Value *In = Phi->getIncomingValueForBlock(From);
        Value *Mapped = VMap.lookup(In);
        VMap[Phi] = Mapped ? Mapped : In;
        continue;
      }
      if (isa<BranchInst>(I))
        continue;
      Instruction *New = I.clone();
      New->insertInto(Copy, Copy->end());
      RemapInstruction(New, VMap,
                       RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
      VMap[&I] = New;
    }
    From = BB;
  }
  Path.front()->removePredecessor(Pred);
  Pred->getTerminator()->replaceSuccessorWith(Path.front(), Copy);
}

/// Replaces every use of \p V with a load of \p Slot just before it (at the
/// end of the incoming block, for a phi).
void loadSlotAtEachUse(Value *V, Value *Slot) {
  SmallVector<Use *, 8> Uses;
  for (Use &U : V->uses())
    Uses.push_back(&U);
  for (Use *U : Uses) {
    auto *User = cast<Instruction>(U->getUser());
    Instruction *Before = User;
    if (auto *Phi = dyn_cast<PHINode>(User))
      Before = Phi->getIncomingBlock(*U)->getTerminator();
    U->set(new LoadInst(V->getType(), Slot, "acc", Before->getIterator()));
  }
}

/// Keeps the loop's accumulator (the header's phi that the latch adds to)
/// in the frame's destroy slot, which nothing reads: a fast clone's frame
/// is never destroyed through its handle (SinkFrameInit.cpp drops the
/// store). In a register, the sum would take a callee-saved register of
/// its own, and with it the fast clone's stack frame would grow past what
/// its recursion can afford. Each use loads the slot just before it.
bool keepAccumulatorInFrame(Loop &L, AllocaInst *Frame) {
  BasicBlock *Header = L.getHeader();
  Function &F = *Header->getParent();
  PHINode *Acc = nullptr;
  for (PHINode &Phi : Header->phis()) {
    bool Accumulates = any_of(Phi.incoming_values(), [&](Value *In) {
      auto *Op = dyn_cast<BinaryOperator>(In);
      return Op && is_contained(Op->operands(), &Phi);
    });
    if (!Accumulates || !Phi.getType()->isIntOrIntVectorTy() ||
        countsTailSyncs(Phi))
      continue;
    if (Acc)
      return false; // two accumulators: leave them in registers
    Acc = &Phi;
  }
  const DataLayout &DL = F.getDataLayout();
  if (!Acc || DL.getTypeStoreSize(Acc->getType()) > DL.getPointerSize())
    return false;
  // The coroutine frame starts with the resume and the destroy pointers
  // (frame_abi.h); the promise follows. The destroy pointer's store is
  // gone (SinkFrameInit.cpp), unless it was not recognised: then the slot
  // is not free.
  if (any_of(instructions(F), [&](Instruction &I) {
        auto *Store = dyn_cast<StoreInst>(&I);
        return Store &&
               offsetInFrame(Store->getPointerOperand(), Frame, DL) ==
                   int64_t(DL.getPointerSize());
      }))
    return false;
  IRBuilder<> B(Frame->getNextNode());
  Value *Slot = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Frame,
                                             DL.getPointerSize());
  for (unsigned I = 0; I < Acc->getNumIncomingValues(); ++I)
    new StoreInst(Acc->getIncomingValue(I), Slot,
                  Acc->getIncomingBlock(I)->getTerminator()->getIterator());
  // The exits that the peeled round shares with the loop take the
  // accumulator's identity from the peeled round: with the slot holding
  // the identity from the frame's initialisation on, a phi of the two is
  // the slot itself, read where the phi's value is used.
  Constant *Identity = nullptr;
  for (Value *In : Acc->incoming_values())
    if (auto *Op = dyn_cast<BinaryOperator>(In);
        Op && is_contained(Op->operands(), Acc))
      Identity = ConstantExpr::getBinOpIdentity(Op->getOpcode(), Acc->getType());
  // The frame's initialisation: the one store of the resume pointer
  // outside the loop, if there is exactly one.
  StoreInst *ResumeStore = nullptr;
  unsigned ResumeStores = 0;
  for (Instruction &I : instructions(F))
    if (auto *Store = dyn_cast<StoreInst>(&I);
        Store && Store->getPointerOperand() == Frame && !L.contains(Store)) {
      ResumeStore = Store;
      ++ResumeStores;
    }
  if (ResumeStores != 1)
    ResumeStore = nullptr;
  StoreInst *IdentityStore = nullptr;
  if (Identity && ResumeStore)
    IdentityStore = new StoreInst(Identity, Slot,
                                  ResumeStore->getNextNode()->getIterator());

  loadSlotAtEachUse(Acc, Slot);
  Acc->eraseFromParent();

  // Phis that merge such loads with the identity (LCSSA's, and the ones
  // that join them further down) become loads at their uses.
  auto isSlotLoad = [&](Value *V) {
    auto *Load = dyn_cast<LoadInst>(V);
    return Load && Load->getPointerOperand() == Slot;
  };
  // The identity only stands for the slot where its store has run: not on
  // a leaf's path, which leaves before the frame is initialised.
  DominatorTree DT(F);
  auto slotHolds = [&](PHINode *Phi, unsigned I) {
    Value *In = Phi->getIncomingValue(I);
    return isSlotLoad(In) ||
           (In == Identity &&
            DT.dominates(IdentityStore,
                         Phi->getIncomingBlock(I)->getTerminator()));
  };
  for (bool Progress = true; Progress && IdentityStore;) {
    Progress = false;
    for (Instruction &I : instructions(F)) {
      auto *Phi = dyn_cast<PHINode>(&I);
      if (!Phi || Phi->getType() != Identity->getType() ||
          L.contains(Phi->getParent()) ||
          !any_of(Phi->incoming_values(), isSlotLoad))
        continue;
      bool AllSlot = true;
      for (unsigned In = 0; In < Phi->getNumIncomingValues(); ++In)
        AllSlot &= slotHolds(Phi, In);
      if (!AllSlot)
        continue;
      loadSlotAtEachUse(Phi, Slot);
      Phi->eraseFromParent();
      Progress = true;
      break;
    }
  }
  return true;
}

/// Peels the loop's first round, so that a call that never spawns (a leaf)
/// leaves before the loop with the function's own argument, and drops from
/// the loop what the first round already stored. Each return that a block
/// outside the loop reaches gets a copy of its own, so that the leaf's path
/// uses none of the registers the loop keeps its values in, and the
/// prologue stays off it.
bool peelFirstRound(Function &F, BasicBlock *Header, AllocaInst *Frame,
                    FunctionAnalysisManager &FAM) {
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  Loop *L = LI.getLoopFor(Header);
  if (!L || L->getHeader() != Header)
    return false;
  simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
  formLCSSA(*L, DT, &LI, &SE);
  ValueToValueMapTy VMap;
  if (!compat::peelFirstIteration(L, LI, SE, DT, AC, VMap))
    return false;
  dropRepeatedInits(F, *L, Frame, VMap, DT);
  return true;
}

/// Whether nothing from \p Load to the end of its block may write what
/// it read: stores to other slots of \p Frame are fine.
bool lastWordOfBlock(LoadInst *Load, AllocaInst *Frame) {
  const DataLayout &DL = Load->getDataLayout();
  auto Begin = offsetInFrame(Load->getPointerOperand(), Frame, DL);
  if (!Begin)
    return false;
  int64_t End = *Begin + DL.getTypeStoreSize(Load->getType()).getFixedValue();
  for (Instruction *I = Load->getNextNode(); I; I = I->getNextNode()) {
    if (!I->mayWriteToMemory())
      continue;
    if (!isa<StoreInst>(I))
      return false;
    auto [B, E] = bytesWritten(*I, Frame);
    if (B < End && *Begin < E)
      return false;
  }
  return true;
}

/// A header phi whose every incoming value is a load of one frame slot,
/// with nothing written after it in its block, is that slot's value on
/// entry to the header: it becomes a load there. Kept in a register
/// instead, it would live through the whole round, and across the push's
/// rare call take a callee-saved register.
bool reloadPhisOfFrameSlots(Loop &L, AllocaInst *Frame) {
  BasicBlock &Entry = Frame->getFunction()->getEntryBlock();
  SmallVector<PHINode *, 4> Phis;
  for (PHINode &Phi : L.getHeader()->phis()) {
    Value *Ptr = nullptr;
    bool SameSlot = true;
    for (unsigned I = 0; I < Phi.getNumIncomingValues() && SameSlot; ++I) {
      auto *Load = dyn_cast<LoadInst>(Phi.getIncomingValue(I));
      SameSlot = Load && Load->isSimple() &&
                 Load->getParent() == Phi.getIncomingBlock(I) &&
                 lastWordOfBlock(Load, Frame) &&
                 (!Ptr || Load->getPointerOperand() == Ptr);
      if (SameSlot)
        Ptr = Load->getPointerOperand();
    }
    auto *Address = dyn_cast_or_null<Instruction>(Ptr);
    if (SameSlot && Ptr && getUnderlyingObject(Ptr) == Frame &&
        (!Address || Address->getParent() == &Entry))
      Phis.push_back(&Phi);
  }
  for (PHINode *Phi : Phis) {
    auto *First = cast<LoadInst>(Phi->getIncomingValue(0));
    auto *Load = new LoadInst(Phi->getType(), First->getPointerOperand(), "",
                              L.getHeader()->getFirstInsertionPt());
    Phi->replaceAllUsesWith(Load);
    Phi->eraseFromParent();
  }
  return !Phis.empty();
}

} // namespace

bool finishSpawnTailLoop(Function &F) {
  bool Changed = separateLeafReturns(F);
  AllocaInst *Frame = findFrame(F);
  if (!Frame)
    return Changed;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (Loop *L : LI.getLoopsInPreorder()) {
    SmallVector<BasicBlock *, 2> Latches;
    L->getLoopLatches(Latches);
    if (none_of(Latches, [](BasicBlock *Latch) {
          return Latch->getTerminator()->getMetadata(TailLoopMD);
        }))
      continue;
    Changed |= keepAccumulatorInFrame(*L, Frame);
    Changed |= reloadPhisOfFrameSlots(*L, Frame);
  }
  // The loads left for phis that became loads at their uses.
  if (Changed)
    for (BasicBlock &BB : F)
      for (Instruction &I : make_early_inc_range(BB))
        if (auto *Load = dyn_cast<LoadInst>(&I);
            Load && Load->use_empty() && Load->isSimple())
          Load->eraseFromParent();
  return Changed;
}

bool separateLeafReturns(Function &F) {
  // The leaf's path makes no call before it: a rethrow's path (routed to
  // the return by RethrowExits.cpp, with a constant) has made one.
  SmallPtrSet<BasicBlock *, 32> AfterACall;
  SmallVector<BasicBlock *, 32> Work;
  for (BasicBlock &BB : F)
    if (any_of(BB, [](Instruction &I) {
          return isa<CallBase>(I) && !isa<IntrinsicInst>(I);
        }) && AfterACall.insert(&BB).second)
      Work.push_back(&BB);
  while (!Work.empty())
    for (BasicBlock *Succ : successors(Work.pop_back_val()))
      if (AfterACall.insert(Succ).second)
        Work.push_back(Succ);
  auto afterACall = [&](BasicBlock *BB) { return AfterACall.count(BB) != 0; };
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Edges;
  for (BasicBlock &Join : F) {
    SmallVector<BasicBlock *, 4> Path = pathToReturn(&Join);
    // A join with phis, or a return shared with the leaf's path (the one
    // oneReturn made, RethrowExits.cpp), where nothing but the branches
    // and the return is copied.
    bool OnlyReturns = all_of(Path, [](BasicBlock *BB) {
      return all_of(*BB, [](Instruction &I) {
        return isa<PHINode>(I) || isa<BranchInst>(I) || isa<ReturnInst>(I);
      });
    });
    if (Path.empty() || (!isa<PHINode>(Join.front()) && !OnlyReturns))
      continue;
    for (BasicBlock *Pred : predecessors(&Join)) {
      if (afterACall(Pred))
        continue;
      bool FromArguments = all_of(Join.phis(), [&](PHINode &Phi) {
        Value *In = Phi.getIncomingValueForBlock(Pred);
        return isa<Argument>(In) || isa<Constant>(In);
      });
      if (FromArguments && !is_contained(Edges, std::pair(&Join, Pred)))
        Edges.push_back({&Join, Pred});
    }
  }
  for (auto [Join, Pred] : Edges)
    if (Join->hasNPredecessorsOrMore(2))
      duplicatePath(pathToReturn(Join), Pred);
  return !Edges.empty();
}

bool hasPrivateFrame(AllocaInst &Frame) { return frameStaysPrivate(&Frame); }

bool callsItselfDirectly(Function &F) { return callsItself(F); }

AllocaInst *findFastCloneFrame(Function &F) { return findFrame(F); }

SmallPtrSet<Function *, 8> findPrivateFrameRecursion(Module &M) {
  SmallPtrSet<Function *, 8> Candidates;
  Function *Alloc = M.getFunction(FrameAllocName);
  if (!Alloc)
    return Candidates;
  SmallPtrSet<Function *, 8> Rejected;
  for (User *U : Alloc->users()) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != Alloc)
      continue;
    Function *F = Call->getFunction();
    if (!Candidates.insert(F).second || !frameStaysPrivate(Call) ||
        !callsItself(*F))
      Rejected.insert(F); // a second frame (an inlined fast clone) too
  }
  for (Function *F : Rejected)
    Candidates.erase(F);
  return Candidates;
}

bool loopSpawnTailCalls(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || F.hasOptNone() ||
      F.hasFnAttribute(Attribute::SanitizeThread) ||
      F.hasFnAttribute(Attribute::SanitizeMemory))
    return false;
  AllocaInst *Frame = findFrame(F);
  if (!Frame)
    return false;
  demoteRethrowingInvokes(F, Frame);
  SmallVector<TailSync, 2> Syncs = raiseTailSyncs(F);
  hoistFrameLoadsAboveCalls(F, Frame);
  BasicBlock *Header = eliminateTailRecursion(F, Frame, FAM);
  lowerTailSyncs(F, Header, Syncs);
  if (!Header)
    return false;
  FAM.invalidate(F, PreservedAnalyses::none());
  peelFirstRound(F, Header, Frame, FAM);
  assert(!verifyFunction(F, &errs()) && "the loop broke the function");
  FAM.invalidate(F, PreservedAnalyses::none());
  ++NumLoops;
  return true;
}

bool setAsideTailSyncs(Function &F) {
  Function *Sync = F.getParent()->getFunction(runtimeName(RuntimeFn::PedigreeSync));
  if (!Sync)
    return false;
  SmallVector<CallInst *, 2> Counts;
  for (User *U : Sync->users())
    if (auto *Call = dyn_cast<CallInst>(U);
        Call && Call->getFunction() == &F &&
        Call->getCalledFunction() == Sync && selfCallBefore(Call))
      Counts.push_back(Call);
  if (Counts.empty())
    return false;
  Function *Marker = tailSyncMarker(*F.getParent());
  for (CallInst *Count : Counts) {
    CallInst::Create(Marker, "", Count->getIterator())
        ->setDebugLoc(Count->getDebugLoc());
    Count->eraseFromParent();
  }
  return true;
}

bool restoreTailSyncsLeft(Module &M) {
  Function *Marker = M.getFunction(TailSyncName);
  if (!Marker)
    return false;
  SmallPtrSet<Function *, 8> Holders;
  for (User *U : Marker->users())
    Holders.insert(cast<Instruction>(U)->getFunction());
  for (Function *F : Holders)
    restoreTailSyncs(*F);
  Marker->eraseFromParent();
  return true;
}

} // namespace weft
