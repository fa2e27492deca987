//===- LandingPadSyncs.cpp - Landing pads wait for outstanding children ----===//
//
// Path 4 of SpawnExceptions.cpp: when the continuation throws, or a child
// throws with its frame owned, while children whose continuations were
// stolen still run, the function's cleanups and handlers must wait for
// them, as in the serial elision, where every child finished before the
// throw. This file decides where in a landing pad that wait goes, and
// builds it.
//
// Where. C++ destroys what an exception leaves behind innermost first: the
// temporaries of the full-expression that threw, then the locals of each
// enclosing scope, and only then does a handler run ([except.ctor]).
// Clang's landing pads follow its EH scope stack in the same order: a pad
// stores the exception and selector in their slots, runs the cleanups of
// the statement's temporaries (conditional ones behind their flags, arrays
// in a loop), then those of the enclosing scopes, then dispatches to a
// handler or resumes. The statement's temporaries belong to the statement
// that threw: to its child, which is done when its exception reaches the
// pad, or to the argument evaluation that threw before the push. No
// outstanding child can use them (each was spawned before they existed),
// and a statement that does not throw destroys them just so, in its
// window, in parallel with the same children. So the wait goes after them:
// at the first instruction of the pad's code that is not one of the
// statement's cleanups, before the first destructor of a local and before
// the dispatch.
//
// The statement's cleanups, as the walk from each pad sees them: calls
// whose arguments are all addresses in the statement's temporaries (the
// allocas whose lifetime ends in a spawn's window) or constants, the
// temporaries' lifetime markers, loads and stores of the cleanup flags and
// array cursors that only this code sees, the pad's stores of its exception
// and selector, and the arithmetic and branches between them. Anything else ends the walk on
// that path. Should a temporary still be used where a walk ends, the
// lowering reports an error rather than let its cleanup run after a wait.
//
// It must not go before them. In a slow clone those temporaries are allocas
// of the clone's activation (DynamicAllocas.cpp). The wait may suspend: the
// slow clone returns to its scheduler, whose next work reuses that stack,
// and the frame resumes in a new activation, whose destructors would then
// run on other memory (a double free). Keeping them alive instead (in the
// arena, or the shared frame) would cost an allocation per spawn in every
// slow clone, for the rare exception, and would still destroy them later
// than their statement.
//
// Before (Clang's pad; SpawnExceptions.cpp made the owned spawn's unwind
// edge rethrow into it):
//
//   lpad:      %lp = landingpad { ptr, i32 } cleanup catch @_ZTI4Boom
//              store (extractvalue %lp, 0), %exn.slot
//              store (extractvalue %lp, 1), %sel.slot
//              call @~string(ptr %tmp)              ; the statement's own
//              br %ehcleanup
//   ehcleanup: call @~Local(ptr %local)             ; an enclosing scope's
//              ...
//
// After (each pad also stores its exception in %weft.exn.slot; pads whose
// paths meet before their first such point share one wait):
//
//   lpad:      %lp = landingpad ... catch null      ; SpawnExceptions.cpp
//              store (extractvalue %lp, 0), %weft.exn.slot
//              store ..., %exn.slot; store ..., %sel.slot
//              call @~string(ptr %tmp)
//              br %ehcleanup
//   ehcleanup: br (stolen && steals != 0), %weft.lp.sync, %weft.lp.cleanups
//   weft.lp.sync:   %held = __weft_hold(load %weft.exn.slot)
//                   sync (may suspend)
//   weft.lp.again:  invoke __weft_rethrow_after_sync(%frame, %held)
//                       unwind %weft.lp.resync
//   weft.lp.resync: %lp2 = landingpad ...           ; the same clauses
//                   the same slot stores, from %lp2
//                   br %weft.lp.cleanups
//   weft.lp.cleanups:
//              call @~Local(ptr %local)
//              ...
//
// The rethrow enters a landing pad of its own, with the pad's clauses, so
// that a child's exception that replaces the pad's gets its own selector;
// its slot stores make the dispatch see it. A value of the pad used past
// the wait (a terminate pad passes its exception in a register) meets the
// re-entry's in a phi.
//
//===----------------------------------------------------------------------===//

#include "analysis/WorkSpan.h"
#include "lower/SpawnLowering.h"

#include "weft/frame_abi.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

using namespace llvm;

namespace weft {
namespace {

/// How far back PadScan follows an address (through GEPs, casts, phis,
/// selects and loads of slots) to a statement's temporary. A pad's cleanups
/// are short, so a real chain takes a few steps; the bound keeps a long one
/// from costing a deep recursion.
constexpr unsigned MaxTemporaryAddressDepth = 12;

/// Which instructions of the function's landing pads come before their
/// wait: the pads' own bookkeeping and the cleanups of the statement that
/// threw. Walks each pad's code up to the first instruction on each path
/// that is neither: that path's exit, where its wait goes.
class PadScan {
public:
  PadScan(const SmallSetVector<AllocaInst *, 4> &Temps, BasicBlock *Handler)
      : Temps(Temps), Handler(Handler) {}

  void walk(LandingPadInst *LP);
  bool isTemporaryAddress(Value *V) {
    SmallPtrSet<Value *, 8> InProgress;
    return temporaryAddress(V, InProgress, 0);
  }

  /// The exits, each with the pads whose paths reach it, in a stable order.
  MapVector<Instruction *, SmallVector<LandingPadInst *, 2>> Exits;
  SmallPtrSet<Instruction *, 32> BeforeWait;

private:
  bool beforeWait(Instruction &I);
  bool destroysTemporary(CallBase &CB);
  bool isCleanupSlot(Value *Ptr);
  bool temporaryAddress(Value *V, SmallPtrSetImpl<Value *> &InProgress,
                        unsigned Depth);

  const SmallSetVector<AllocaInst *, 4> &Temps;
  BasicBlock *Handler; // the catch-all's handler: never part of a pad's walk
};

bool isPadValue(Value *V) {
  auto *EV = dyn_cast<ExtractValueInst>(V);
  return EV && isa<LandingPadInst>(EV->getAggregateOperand());
}

/// The values stored to \p Ptr, if it is an alloca that is only ever loaded
/// and stored directly: no call, and so no child, can see it.
bool slotValues(Value *Ptr, SmallVectorImpl<Value *> &Stored) {
  auto *Slot = dyn_cast<AllocaInst>(Ptr);
  if (!Slot)
    return false;
  for (User *U : Slot->users()) {
    auto *SI = dyn_cast<StoreInst>(U);
    if (SI && SI->getValueOperand() != Slot)
      Stored.push_back(SI->getValueOperand());
    else if (!isa<LoadInst>(U) &&
             !cast<Instruction>(U)->isLifetimeStartOrEnd())
      return false;
  }
  return true;
}

void PadScan::walk(LandingPadInst *LP) {
  SmallVector<Instruction *, 8> Work = {LP->getNextNode()};
  SmallPtrSet<BasicBlock *, 16> Seen = {LP->getParent()};
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    while (beforeWait(*I) && !I->isTerminator()) {
      BeforeWait.insert(I);
      I = I->getNextNode();
    }
    if (!beforeWait(*I)) {
      SmallVector<LandingPadInst *, 2> &Pads = Exits[I];
      if (!is_contained(Pads, LP))
        Pads.push_back(LP);
      continue;
    }
    BeforeWait.insert(I);
    // A destructor that may throw (an invoke) goes on normally; its unwind
    // edge leads to a terminate pad, walked as a pad of its own.
    auto *Invoke = dyn_cast<InvokeInst>(I);
    for (BasicBlock *Succ : successors(I))
      if ((!Invoke || Succ == Invoke->getNormalDest()) &&
          Seen.insert(Succ).second)
        Work.push_back(&Succ->front());
  }
}

/// The pad's own bookkeeping (its exception into slots), the temporaries'
/// destructors and the ends of their lives, their cleanup flags, and the
/// arithmetic and branches between them.
bool PadScan::beforeWait(Instruction &I) {
  if (isa<LandingPadInst>(I))
    return true;
  if (I.isTerminator()) {
    if (is_contained(successors(&I), Handler))
      return false;
    if (auto *Invoke = dyn_cast<InvokeInst>(&I))
      return destroysTemporary(*Invoke);
    return isa<BranchInst>(I) || isa<SwitchInst>(I);
  }
  // The end of a temporary's life; not a local's, which an outstanding
  // child may still write (a spawn's result in a try block that a sibling's
  // exception leaves): its life ends after the wait.
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return isa<DbgInfoIntrinsic>(II) ||
           (II->isLifetimeStartOrEnd() &&
            isTemporaryAddress(II->getArgOperand(II->arg_size() - 1)));
  if (auto *CB = dyn_cast<CallBase>(&I))
    return destroysTemporary(*CB);
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return isCleanupSlot(LI->getPointerOperand());
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *Ptr = SI->getPointerOperand();
    if (isPadValue(SI->getValueOperand()))
      return isa<AllocaInst>(Ptr); // an exception or selector slot
    return isa<Constant>(SI->getValueOperand()) && isCleanupSlot(Ptr);
  }
  return !I.mayReadOrWriteMemory() && !I.mayHaveSideEffects();
}

/// A direct call whose every argument is an address in one of the
/// statement's temporaries, or a constant (a VTT): a destructor.
bool PadScan::destroysTemporary(CallBase &CB) {
  Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee->isIntrinsic())
    return false;
  bool Any = false;
  for (Value *Arg : CB.args()) {
    if (isa<Constant>(Arg))
      continue;
    if (!isTemporaryAddress(Arg))
      return false;
    Any = true;
  }
  return Any;
}

/// A slot that holds constants (a conditional cleanup's flag) or addresses
/// in the statement's temporaries (how much of an array of them is built).
bool PadScan::isCleanupSlot(Value *Ptr) {
  SmallVector<Value *, 4> Stored;
  if (!slotValues(Ptr, Stored) || Temps.count(cast<AllocaInst>(Ptr)))
    return false;
  return all_of(Stored, [&](Value *V) {
    return isa<Constant>(V) || isTemporaryAddress(V);
  });
}

/// An address in one of the statement's temporaries. A phi in progress
/// counts as one (a loop over an array of temporaries); the depth is
/// bounded, since a pad's cleanups are short.
bool PadScan::temporaryAddress(Value *V, SmallPtrSetImpl<Value *> &InProgress,
                               unsigned Depth) {
  if (auto *AI = dyn_cast<AllocaInst>(V))
    return Temps.count(AI);
  if (Depth > MaxTemporaryAddressDepth)
    return false;
  if (!InProgress.insert(V).second)
    return true;
  auto Operand = [&](Value *Op) {
    return temporaryAddress(Op, InProgress, Depth + 1);
  };
  SmallVector<Value *, 4> Stored;
  bool Result = false;
  if (auto *GEP = dyn_cast<GetElementPtrInst>(V))
    Result = Operand(GEP->getPointerOperand());
  else if (auto *Cast = dyn_cast<CastInst>(V))
    Result = Cast->getSrcTy()->isPointerTy() && Operand(Cast->getOperand(0));
  else if (auto *Phi = dyn_cast<PHINode>(V))
    Result = all_of(Phi->incoming_values(), Operand);
  else if (auto *Sel = dyn_cast<SelectInst>(V))
    Result = Operand(Sel->getTrueValue()) && Operand(Sel->getFalseValue());
  else if (auto *LI = dyn_cast<LoadInst>(V))
    Result = slotValues(LI->getPointerOperand(), Stored) && !Stored.empty() &&
             all_of(Stored, Operand);
  InProgress.erase(V);
  return Result;
}

/// Whether each wait can go where the walk put it: past the temporaries'
/// cleanups (else one of them would run after a suspend, on a stack that
/// may be gone), and on code that only the pads reach. Reports if not.
bool checkWaits(Function &F, PadScan &Scan) {
  // Code reached without unwinding: a catch handler's continuation, never
  // a pad's cleanups.
  SmallPtrSet<BasicBlock *, 32> Normal = {&F.getEntryBlock()};
  SmallVector<BasicBlock *, 16> Work = {&F.getEntryBlock()};
  while (!Work.empty()) {
    Instruction *Term = Work.pop_back_val()->getTerminator();
    auto *Invoke = dyn_cast<InvokeInst>(Term);
    for (BasicBlock *Succ : successors(Term))
      if ((!Invoke || Succ != Invoke->getUnwindDest()) &&
          Normal.insert(Succ).second)
        Work.push_back(Succ);
  }
  for (auto &Exit : Scan.Exits) {
    Instruction *At = Exit.first;
    if (any_of(At->operands(),
               [&](Value *Op) { return Scan.isTemporaryAddress(Op); })) {
      reportUnsupported(F,
                        "internal error: a landing pad uses a spawned "
                        "statement's temporary after it must wait for the "
                        "function's children",
                        At);
      return false;
    }
    if (Normal.count(At->getParent())) {
      reportUnsupported(F, "internal error: a landing pad's code is shared",
                        At);
      return false;
    }
  }
  return true;
}

/// The value \p V of a pad, computed again from the re-entry pad \p To.
Value *replayPadValue(Value *V, LandingPadInst *To, IRBuilder<> &B) {
  if (isa<LandingPadInst>(V))
    return To;
  auto *EV = cast<ExtractValueInst>(V);
  return B.CreateExtractValue(To, EV->getIndices(), EV->getName());
}

} // namespace

/// Path 4: every landing pad of the function's own waits for outstanding
/// children once its statement's temporaries are destroyed, before
/// anything else of its cleanups and handlers (the file comment).
void SpawnLowering::syncLandingPads() {
  if (OwnPads.empty())
    return;
  // Each pad's exception, for the hold at a wait its path may share.
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  ExnSlot = B.CreateAlloca(B.getPtrTy(), nullptr, "weft.exn.slot");
  for (LandingPadInst *LP : OwnPads) {
    B.SetInsertPoint(LP->getParent(), LP->getParent()->getFirstInsertionPt());
    B.CreateStore(B.CreateExtractValue(LP, 0), ExnSlot);
  }

  PadScan Scan(StatementTemporaries, Handler);
  for (LandingPadInst *LP : OwnPads)
    Scan.walk(LP);
  if (!checkWaits(F, Scan))
    return;
  SmallVector<std::pair<LandingPadInst *, LandingPadInst *>, 8> Reentries;
  for (auto &[At, Pads] : Scan.Exits) {
    LandingPadInst *Again = waitBeforeCleanups(At, Pads, Scan.BeforeWait);
    for (LandingPadInst *Pad : Pads)
      Reentries.push_back({Pad, Again});
  }
  repairPadValues(Reentries, Scan.BeforeWait);
}

/// Builds the wait before \p At (the walk's exit for \p Pads) and returns
/// the landing pad that the rethrow after it enters.
LandingPadInst *SpawnLowering::waitBeforeCleanups(
    Instruction *At, ArrayRef<LandingPadInst *> Pads,
    const SmallPtrSetImpl<Instruction *> &BeforeWait) {
  LLVMContext &C = F.getContext();
  BasicBlock *Head = At->getParent();
  BasicBlock *Cleanups = Head->splitBasicBlock(At, "weft.lp.cleanups");
  Head->getTerminator()->eraseFromParent();
  BasicBlock *Wait = BasicBlock::Create(C, "weft.lp.sync", &F, Cleanups);
  BasicBlock *Suspend = BasicBlock::Create(C, "weft.lp.wait", &F, Cleanups);
  BasicBlock *Again = BasicBlock::Create(C, "weft.lp.again", &F, Cleanups);
  BasicBlock *Resync = BasicBlock::Create(C, "weft.lp.resync", &F, Cleanups);

  // Only a slow clone has children of its own outstanding (steals since
  // its last sync); the frame's owner reads its own fields.
  IRBuilder<> B(Head);
  Value *Steals = B.CreateLoad(
      B.getInt32Ty(), frameField(B, WEFT_FRAME_STEALS_OFFSET, "steals.addr"),
      "steals");
  Value *Outstanding = B.CreateAnd(loadStolen(B), B.CreateIsNotNull(Steals));
  Instruction *Branch = B.CreateCondBr(Outstanding, Wait, Cleanups);
  // The analyses run serially, where nothing is stolen, but their model
  // must see the wait: the children spawned since the last sync end here,
  // before the locals' destructors and the ends of their lives, which the
  // race detector reported as racing with the children's writes.
  if (WorkSpan)
    WorkSpan->sync(Branch);

  // Out of flight first: the sync may resume on another thread, and the
  // C++ runtime counts exceptions in flight per thread.
  B.SetInsertPoint(Wait);
  Value *Exn = B.CreateLoad(B.getPtrTy(), ExnSlot, "weft.exn");
  Value *Held = B.CreateCall(RT.Hold, {Exn}, "weft.held");
  Value *Save = B.CreateCall(RT.CoroSave, {Handle}, "weft.save");
  Value *MustWait = B.CreateCall(RT.SyncSlow, {Frame}, "weft.wait");
  B.CreateCondBr(MustWait, Suspend, Again);
  addSuspend(Suspend, Save, Again);

  // A child's exception if one came (serially it came first), else the
  // same one, into a pad of its own.
  B.SetInsertPoint(Again);
  BasicBlock *Never = BasicBlock::Create(C, "weft.unreachable", &F);
  B.CreateInvoke(RT.RethrowAfterSync, Never, Resync, {Frame, Held});
  IRBuilder<>(Never).CreateUnreachable();

  B.SetInsertPoint(Resync);
  LandingPadInst *LP = reentryPad(B, Pads);
  replaySlotStores(B, Pads, LP, BeforeWait);
  B.CreateBr(Cleanups);
  return LP;
}

/// A landing pad with the clauses of \p Pads (the same ones in Clang's
/// code: their paths meet, so they sit in the same try blocks).
LandingPadInst *SpawnLowering::reentryPad(IRBuilder<> &B,
                                          ArrayRef<LandingPadInst *> Pads) {
  SmallVector<Constant *, 4> Clauses;
  bool Cleanup = false;
  for (LandingPadInst *Pad : Pads) {
    Cleanup |= Pad->isCleanup();
    for (unsigned I = 0, E = Pad->getNumClauses(); I != E; ++I)
      if (!is_contained(Clauses, Pad->getClause(I)))
        Clauses.push_back(Pad->getClause(I));
  }
  LandingPadInst *LP =
      B.CreateLandingPad(Pads.front()->getType(), Clauses.size(), "weft.lp");
  LP->setCleanup(Cleanup);
  for (Constant *Clause : Clauses)
    LP->addClause(Clause);
  return LP;
}

/// The stores that \p Pads made of their exception and selector before the
/// wait, made again from the re-entry pad \p LP: the dispatch and the
/// resume after the wait read those slots.
void SpawnLowering::replaySlotStores(
    IRBuilder<> &B, ArrayRef<LandingPadInst *> Pads, LandingPadInst *LP,
    const SmallPtrSetImpl<Instruction *> &BeforeWait) {
  SmallVector<std::pair<Value *, ArrayRef<unsigned>>, 4> Done;
  for (LandingPadInst *Pad : Pads)
    for (User *U : Pad->users())
      for (User *EU : U->users()) {
        auto *EV = dyn_cast<ExtractValueInst>(U);
        auto *SI = dyn_cast<StoreInst>(EU);
        if (!EV || !SI || SI->getValueOperand() != EV || !BeforeWait.count(SI))
          continue;
        std::pair<Value *, ArrayRef<unsigned>> Key = {SI->getPointerOperand(),
                                                      EV->getIndices()};
        if (is_contained(Done, Key))
          continue;
        Done.push_back(Key);
        B.CreateStore(replayPadValue(EV, LP, B), SI->getPointerOperand());
      }
}

/// A pad's value used past a wait (\p Reentries pairs each pad with the
/// re-entry pad of each wait it reaches) meets the re-entry's there: a
/// terminate pad passes its exception in a register.
void SpawnLowering::repairPadValues(
    ArrayRef<std::pair<LandingPadInst *, LandingPadInst *>> Reentries,
    const SmallPtrSetImpl<Instruction *> &BeforeWait) {
  for (LandingPadInst *Pad : OwnPads) {
    SmallVector<Value *, 4> Values = {Pad};
    for (User *U : Pad->users())
      if (isa<ExtractValueInst>(U) && BeforeWait.count(cast<Instruction>(U)))
        Values.push_back(U);
    for (Value *V : Values) {
      SmallVector<Use *, 4> Late;
      for (Use &U : V->uses())
        if (!BeforeWait.count(cast<Instruction>(U.getUser())))
          Late.push_back(&U);
      if (Late.empty())
        continue;
      SSAUpdater SSA;
      SSA.Initialize(V->getType(), V->getName());
      SSA.AddAvailableValue(Pad->getParent(), V);
      for (auto &[From, Again] : Reentries)
        if (From == Pad) {
          IRBuilder<> B(Again->getParent()->getTerminator());
          SSA.AddAvailableValue(Again->getParent(),
                                replayPadValue(V, Again, B));
        }
      for (Use *U : Late)
        SSA.RewriteUse(*U);
    }
  }
}

} // namespace weft
