//===- SpawnExceptions.cpp - Exceptions in spawning functions --------------===//
//
// Exceptions follow OpenCilk's rules: an exception thrown by a spawned child
// surfaces at its parent's sync (or where the serial elision would have
// thrown it, when nothing was stolen), after the other children finish.
// Three paths need care, because a frame may be on a deque or owned by a
// thief while an exception is in flight:
//
// 1. A spawned child throws. The spawned call becomes an invoke whose
//    landing pad (a catch-all) records the exception in the frame
//    (__weft_catch) and then pops. Owned: nothing was stolen, so the
//    exception goes on from the spawn point exactly as in the serial
//    elision (__weft_rethrow, unwinding where the call would have). Stolen:
//    a thief runs the continuation; the victim counts the child done, as for
//    a normal return, and the exception waits in the frame.
//
//      invoke @child() to %ok unwind %weft.spawn.unwind
//    weft.spawn.unwind:
//      %lp = landingpad { ptr, i32 } catch ptr null
//      call @__weft_catch(%frame, %exn)
//      br (call @__weft_pop(%mark)), %weft.spawn.rethrow, %weft.spawn.stolen
//    weft.spawn.rethrow:
//      invoke @__weft_rethrow(%frame) unwind %the.original.landing.pad
//
// 2. A sync in the slow clone whose children left an exception rethrows it
//    there, into the sync's own landing pad if the sync sits in a try block
//    or a scope with destructors (the front end's sync marker may throw, so
//    Clang emits it as an invoke exactly there).
//
// 3. An exception must never unwind out of the slow clone into the
//    scheduler that resumed it. So the function gets a catch-all: every
//    landing pad gains a catch-all clause, and every `resume` and every
//    may-throw call leads to one handler, which records the exception in the
//    frame. The fast clone rethrows it at once. The slow clone runs the
//    implicit sync (its children finish first) and completes; the parked
//    fast clone, resumed, rethrows it to its caller (rethrowAfterPark).
//
// 4. The continuation throws, or a child throws with its frame owned, while
//    stolen children still run. Its cleanups and handlers (destructors of
//    locals the children may use) must wait for them, as in the serial
//    elision, where every child finished before the throw; OpenCilk syncs
//    there too. So each of the function's own landing pads first destroys
//    the temporaries of the statement that threw (they are that statement's:
//    no outstanding child can use them, and in a slow clone they live on
//    the stack that a suspended wait leaves), then checks, in the slow
//    clone, whether children are outstanding; if so it takes the exception
//    out of flight (__weft_hold: the sync may resume on another thread, and
//    the C++ runtime counts exceptions in flight per thread), syncs, and
//    rethrows it into a landing pad with the same clauses, which goes on
//    with the cleanups that follow (LandingPadSyncs.cpp says where the wait
//    goes and why):
//
//      pad:   %lp = landingpad ...; slot stores; ~temporaries
//             br (stolen && steals != 0), %weft.lp.sync, %weft.lp.cleanups
//      weft.lp.sync:   %held = __weft_hold(%exn); sync (may suspend)
//      weft.lp.again:  invoke __weft_rethrow_after_sync(%frame, %held)
//                          unwind %weft.lp.resync
//      weft.lp.resync: %lp2 = landingpad ...; slot stores
//                      br %weft.lp.cleanups
//
//    If a child threw too, its exception replaces the continuation's, as
//    in OpenCilk: serially it came first. (OpenCilk syncs only at the end
//    of a try block that spawns; Weft syncs at every landing pad, so a
//    child's exception may reach the handler of a try block nested in the
//    continuation, which serially it would not.)
//
// Catch-all clauses make the personality's search phase stop in every
// spawning function, so cleanups run before an exception nobody catches
// terminates the program; C++ leaves that choice to the implementation.
// Nothing here costs anything until something throws.
//
//===----------------------------------------------------------------------===//

#include "shared/Markers.h"
#include "lower/SpawnLowering.h"

#include "weft/frame_abi.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace weft {
namespace {

/// A call that may unwind into its caller without a landing pad of its own.
/// A plain call to the sync marker does not count: the marker is declared
/// may-throw only so that Clang shows where a sync's landing pad is.
bool mayUnwindFromCall(const CallInst &CI) {
  if (CI.doesNotThrow() || isa<IntrinsicInst>(CI))
    return false;
  if (const Function *Callee = CI.getCalledFunction();
      Callee && Callee->getName() == SyncMarkerName)
    return false;
  if (const auto *Asm = dyn_cast<InlineAsm>(CI.getCalledOperand()))
    return Asm->canThrow();
  return true;
}

bool hasCatchAll(const LandingPadInst &LP) {
  for (unsigned I = 0, E = LP.getNumClauses(); I != E; ++I)
    if (LP.isCatch(I) && isa<ConstantPointerNull>(LP.getClause(I)))
      return true;
  return false;
}

StructType *landingPadType(LLVMContext &C) {
  return StructType::get(PointerType::getUnqual(C), Type::getInt32Ty(C));
}

} // namespace

bool SpawnLowering::needsUnwindHandling(Function &F) {
  for (Instruction &I : instructions(F)) {
    if (isa<InvokeInst>(I) || isa<ResumeInst>(I) || isa<LandingPadInst>(I))
      return true;
    if (auto *CI = dyn_cast<CallInst>(&I); CI && mayUnwindFromCall(*CI))
      return true;
  }
  return false;
}

/// Gives F its catch-all (path 3 in the file comment). Runs before the
/// spawns are lowered, so spawned calls that may throw become invokes here.
void SpawnLowering::prepareUnwinding() {
  if (!needsUnwindHandling(F))
    return;
  Unwinds = true;
  LLVMContext &C = F.getContext();
  if (!F.hasPersonalityFn()) {
    FunctionCallee Personality = F.getParent()->getOrInsertFunction(
        "__gxx_personality_v0", FunctionType::get(Type::getInt32Ty(C), true));
    F.setPersonalityFn(cast<Constant>(Personality.getCallee()));
  }

  SmallVector<LandingPadInst *, 8> &Pads = OwnPads;
  SmallVector<ResumeInst *, 4> Resumes;
  SmallVector<CallInst *, 16> Calls;
  for (Instruction &I : instructions(F)) {
    if (auto *LP = dyn_cast<LandingPadInst>(&I))
      Pads.push_back(LP);
    else if (auto *R = dyn_cast<ResumeInst>(&I))
      Resumes.push_back(R);
    else if (auto *CI = dyn_cast<CallInst>(&I); CI && mayUnwindFromCall(*CI))
      Calls.push_back(CI);
  }

  // The handler: record the exception, then rethrow (fast clone) or escape
  // through the implicit sync (slow clone).
  Handler = BasicBlock::Create(C, "weft.eh.handler", &F);
  BasicBlock *FastRethrow = BasicBlock::Create(C, "weft.eh.rethrow", &F);
  BasicBlock *Escape = BasicBlock::Create(C, "weft.eh.escape", &F);
  IRBuilder<> B(Handler);
  HandlerExn = B.CreatePHI(B.getPtrTy(), 4, "weft.exn");
  B.CreateCall(RT.Catch, {Frame, HandlerExn});
  B.CreateCondBr(loadStolen(B), Escape, FastRethrow);
  B.SetInsertPoint(FastRethrow);
  B.CreateCall(RT.Rethrow, {Frame}); // unwinds to the fast clone's caller
  B.CreateUnreachable();
  B.SetInsertPoint(Escape);
  EscapeReturn = RetTy->isVoidTy() ? B.CreateRetVoid()
                                   : B.CreateRet(PoisonValue::get(RetTy));

  CatchAllPad = BasicBlock::Create(C, "weft.eh.catchall", &F);
  B.SetInsertPoint(CatchAllPad);
  LandingPadInst *LP = B.CreateLandingPad(landingPadType(C), 1, "weft.lp");
  LP->addClause(ConstantPointerNull::get(B.getPtrTy()));
  HandlerExn->addIncoming(B.CreateExtractValue(LP, 0), CatchAllPad);
  B.CreateBr(Handler);

  for (LandingPadInst *Pad : Pads)
    if (!hasCatchAll(*Pad))
      Pad->addClause(ConstantPointerNull::get(B.getPtrTy()));
  for (ResumeInst *R : Resumes) {
    B.SetInsertPoint(R);
    HandlerExn->addIncoming(B.CreateExtractValue(R->getValue(), 0),
                            R->getParent());
    B.CreateBr(Handler);
    R->eraseFromParent();
  }
  for (CallInst *CI : Calls)
    changeToInvokeAndSplitBasicBlock(CI, CatchAllPad);
}

/// Detached copies of the cleanups in a spawn's window: its temporaries'
/// destructors and lifetime ends, which the window runs after a normal
/// return. When the child throws and the continuation was stolen, they must
/// run on the way to the steal point instead: the original landing pad,
/// which would run them, belongs to the continuation now. (Their lifetime
/// ends also tell coro-split that the temporaries stay out of the shared
/// frame; see staysInParent in SpawnHelper.cpp. Each use of a temporary
/// computes its address anew, DynamicAllocas.cpp: read from the frame after
/// the child, it would be the thief's next iteration's.)
SmallVector<Instruction *, 4>
SpawnLowering::copyCleanups(ArrayRef<Instruction *> Window) {
  SmallPtrSet<Instruction *, 8> Inside(Window.begin(), Window.end());
  SmallVector<Instruction *, 4> Copies;
  for (Instruction *I : Window.drop_front()) {
    auto *Cleanup = dyn_cast<CallBase>(I);
    if (!Cleanup || isa<MemTransferInst>(Cleanup)) // a copy of the result
      continue;
    if (any_of(Cleanup->operands(), [&](Value *Op) {
          auto *OpI = dyn_cast<Instruction>(Op);
          return OpI && Inside.count(OpI);
        }))
      continue; // computed in the window: not there on the unwind path
    Copies.push_back(Cleanup->clone());
  }
  return Copies;
}

/// Path 1: the unwind edge of a spawned invoke, whose normal path
/// lowerSpawn() already built (\p Stolen is its steal point's block, \p
/// Mark what its push returned). When
/// the continuation was stolen, the victim runs \p Cleanups (from
/// copyCleanups), counts the child done and leaves through the function's
/// exit, as the steal point's suspend would, but without joining that
/// block. A value that the optimizer recomputes on this path (a load
/// repeated after the landing pad) would otherwise meet the normal path's
/// value in a phi there, live across the suspend; coro-split would store
/// that phi to the frame only when the victim gets there, after the child,
/// while the thief reads the slot when it resumes.
void SpawnLowering::lowerSpawnUnwind(InvokeInst *Spawn, Value *Mark,
                                     BasicBlock *Stolen,
                                     ArrayRef<Instruction *> Cleanups) {
  LLVMContext &C = F.getContext();
  BasicBlock *Original = Spawn->getUnwindDest();
  BasicBlock *From = Spawn->getParent();
  BasicBlock *Pad = BasicBlock::Create(C, "weft.spawn.unwind", &F, Stolen);
  BasicBlock *Owned = BasicBlock::Create(C, "weft.spawn.rethrow", &F, Stolen);

  IRBuilder<> B(Pad);
  LandingPadInst *LP = B.CreateLandingPad(landingPadType(C), 1, "weft.lp");
  LP->addClause(ConstantPointerNull::get(B.getPtrTy()));
  B.CreateCall(RT.Catch, {Frame, B.CreateExtractValue(LP, 0)});
  // The pop must come after the child is done with the frame's deque entry
  // and before anything else: the frame may be on the deque right now.
  Value *IsOwned = B.CreateCall(RT.Pop, {Mark}, "weft.owned");
  BasicBlock *ToStolen =
      BasicBlock::Create(C, "weft.spawn.unwind.stolen", &F, Stolen);
  B.CreateCondBr(IsOwned, Owned, ToStolen);

  for (Instruction *Cleanup : Cleanups)
    Cleanup->insertInto(ToStolen, ToStolen->end());
  B.SetInsertPoint(ToStolen);
  B.CreateCall(RT.SpawnStolen, {Frame});
  branchToExit(B, /*Suspended=*/true, nullptr);

  B.SetInsertPoint(Owned);
  emitRethrow(B, Original, From);
  Spawn->setUnwindDest(Pad);
  Original->removePredecessor(From);
}

/// Ends the block at \p B with `invoke __weft_rethrow(frame)` unwinding to
/// \p UnwindTo (null: the catch-all). Phis there get, for the new edge, the
/// values they have for \p Like.
void SpawnLowering::emitRethrow(IRBuilder<> &B, BasicBlock *UnwindTo,
                                BasicBlock *Like) {
  if (!UnwindTo)
    UnwindTo = CatchAllPad;
  BasicBlock *From = B.GetInsertBlock();
  BasicBlock *Never =
      BasicBlock::Create(F.getContext(), "weft.unreachable", &F);
  B.CreateInvoke(RT.Rethrow, Never, UnwindTo, {Frame});
  for (PHINode &Phi : UnwindTo->phis())
    Phi.addIncoming(Phi.getIncomingValueForBlock(Like), From);
  IRBuilder<>(Never).CreateUnreachable();
}

/// Path 2: after a slow-clone sync, rethrow what a child left in the frame.
/// Returns the block that the sync's slow path must continue to.
BasicBlock *SpawnLowering::emitPendingCheck(BasicBlock *Done,
                                            BasicBlock *UnwindTo) {
  LLVMContext &C = F.getContext();
  BasicBlock *Check = BasicBlock::Create(C, "weft.sync.check", &F, Done);
  BasicBlock *Rethrow = BasicBlock::Create(C, "weft.sync.rethrow", &F, Done);
  IRBuilder<> B(Check);
  // Every child that wrote the slot finished before the sync passed (the
  // join counter's acquire), so a plain load sees it.
  B.CreateCondBr(hasPendingException(B), Rethrow, Done);
  B.SetInsertPoint(Rethrow);
  emitRethrow(B, UnwindTo, Done);
  return Check;
}

/// Whether the frame holds an exception a child or the slow clone left.
Value *SpawnLowering::hasPendingException(IRBuilder<> &B) {
  Value *Exn = B.CreateLoad(
      B.getPtrTy(), frameField(B, WEFT_FRAME_EXCEPTION_OFFSET, "exn.addr"),
      "exn");
  return B.CreateIsNotNull(Exn);
}

/// Path 3, last step: the fast clone resumed after its slow clone completed
/// with an exception rethrows it to its caller.
void SpawnLowering::rethrowAfterPark(IRBuilder<> &B) {
  LLVMContext &C = F.getContext();
  BasicBlock *Throw = BasicBlock::Create(C, "weft.exit.rethrow", &F);
  BasicBlock *Normal = BasicBlock::Create(C, "weft.exit.normal", &F);
  B.CreateCondBr(hasPendingException(B), Throw, Normal);
  B.SetInsertPoint(Throw);
  B.CreateCall(RT.Rethrow, {Frame});
  B.CreateUnreachable();
  B.SetInsertPoint(Normal);
}

} // namespace weft
