//===- SpawnWindow.cpp - What the victim runs after a spawned call --------===//
//
// A spawned statement goes on after its call: the result's conversions and
// stores, and the destruction of the statement's temporaries, which the
// child may still be using. That rest is the spawn's window, which the
// victim runs after the child returns and before it pops, and which a
// thief never runs. This file finds it, evaluates the destination before
// the spawn, and marks what the window writes as escaped.
//
//===----------------------------------------------------------------------===//

#include "lower/SpawnLowering.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace weft {

/// Whether \p I ends the scan for a spawn's window: the statement's end
/// marker, any other mark or runtime call, or another spawned call.
bool SpawnLowering::endsWindowScan(const Instruction &I) const {
  if (I.isTerminator())
    return true;
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  if (SpawnSet.count(CB))
    return true;
  const Function *Callee = CB->getCalledFunction();
  return Callee && (Callee->getName().starts_with("__weft_") ||
                    Callee->getIntrinsicID() == Intrinsic::coro_save ||
                    Callee->getIntrinsicID() == Intrinsic::coro_suspend);
}

bool isSpawnEnd(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == SpawnEndMarkerName;
}

/// Returns the last instruction of the spawn's window: what the victim runs
/// after the child returns and before it pops, scanning from \p First (after
/// the call, or at the start of an invoke's normal destination). That is
/// the rest of the spawning statement, up to the front end's end marker:
/// the instructions computing on the result (conversions, extractvalue, a
/// load through a returned reference),
/// its stores, copies out of a temporary the window filled (a struct
/// assigned through a temporary), and the destruction of the statement's
/// temporaries, which the call may still be using. OpenCilk runs all of it
/// in the child too.
///
/// Every store and copy of the result becomes volatile: a result may be
/// read only after the sync, and only through memory; if SROA promoted the
/// destination, the value would flow as SSA to a phi before the sync, and
/// coro-split would reload it at the resume point, where the thief runs
/// while the child is still computing it.
///
/// What evaluates a destination (`a[i++] = spawn f()` loads `a` and `i`
/// and increments `i` after the call) is hoisted above the call: the
/// destination is evaluated in the parent before the spawn. Returns null if
/// the result is used in any other way.
///
/// Without an end marker (the statement spans blocks), the window stops at
/// the last store or copy of the result; what follows is the continuation.
Instruction *SpawnLowering::collectSpawnWindow(
    CallBase *Call, Instruction *First, SmallVectorImpl<Instruction *> &Window) {
  Window.push_back(Call);
  SmallVector<Instruction *, 16> Statement;
  bool Bounded = false;
  for (Instruction *I = First; !(Bounded = isSpawnEnd(*I)); I = I->getNextNode()) {
    if (endsWindowScan(*I))
      break;
    Statement.push_back(I);
  }

  // What consumes the result.
  SmallPtrSet<Value *, 8> Values = {Call}; // SSA values computed from it
  SmallPtrSet<Value *, 4> Filled;          // objects holding it
  SmallPtrSet<Instruction *, 8> Consumers;
  if (Call->arg_size() && Call->paramHasAttr(0, Attribute::StructRet))
    Filled.insert(getUnderlyingObject(Call->getArgOperand(0)));
  for (Instruction *I : Statement) {
    bool ReadsResult =
        any_of(I->operands(), [&](Value *Op) { return Values.count(Op); });
    if (auto *Copy = dyn_cast<MemTransferInst>(I);
        Copy && Filled.count(getUnderlyingObject(Copy->getSource()))) {
      Copy->setVolatile(ConstantInt::getTrue(F.getContext()));
      Filled.insert(getUnderlyingObject(Copy->getDest()));
    } else if (auto *SI = dyn_cast<StoreInst>(I);
               SI && Values.count(SI->getValueOperand())) {
      SI->setVolatile(true);
      Filled.insert(getUnderlyingObject(SI->getPointerOperand()));
    } else if (ReadsResult && !I->mayHaveSideEffects()) {
      Values.insert(I); // also a load through a returned reference
    } else if (ReadsResult) {
      return nullptr; // passed on: `g(spawn f())`
    } else {
      continue;
    }
    Consumers.insert(I);
  }

  // The destinations: Clang evaluates the left side of `dst = f()` after
  // the call and before the first store (`*p++ = f()` advances p there),
  // and each store's address may be computed just before it. What comes
  // before the first store may also be cleanups, when the spawn initialises
  // a variable (destructor calls, lifetime ends); those stay.
  SmallPtrSet<Instruction *, 8> Hoisted;
  SmallVector<Instruction *, 8> Work(Consumers.begin(), Consumers.end());
  for (Instruction *I : Statement) {
    if (Consumers.empty() || Consumers.count(I))
      break;
    if (!isa<CallBase>(I))
      Work.push_back(I), Hoisted.insert(I);
  }
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (Value *Op : I->operands()) {
      auto *OpI = dyn_cast<Instruction>(Op);
      if (!OpI || !is_contained(Statement, OpI) || Hoisted.count(OpI))
        continue;
      if (Consumers.count(OpI)) {
        if (Hoisted.count(I))
          return nullptr; // a destination computed from the result
        continue;
      }
      Hoisted.insert(OpI);
      Work.push_back(OpI);
    }
  }

  Instruction *LastConsumer = nullptr;
  for (Instruction *I : Statement)
    if (Consumers.count(I))
      LastConsumer = I;
  Instruction *End = Call;
  for (Instruction *I : Statement) {
    if (Hoisted.count(I)) {
      compat::moveBefore(I, Call);
      continue;
    }
    if (!Bounded && (!LastConsumer || LastConsumer->comesBefore(I)))
      break; // a destination's address comes before its store
    Window.push_back(I);
    End = I;
  }
  // The result must not be used except inside the window.
  for (Value *V : Values)
    for (User *U : V->users())
      if (!is_contained(Window, U))
        return nullptr;
  return End;
}

/// The error for a spawn whose result is used other than by stores.
const char *whyNoWindow(CallBase *Call, Instruction *First) {
  Instruction *Last = First->getParent()->getTerminator();
  bool UsedBeyond = any_of(Call->users(), [&](User *U) {
    return cast<Instruction>(U)->getParent() != First->getParent();
  });
  if (isa<InvokeInst>(Last) && UsedBeyond)
    return "the destination of a spawned call's result is computed by a "
           "call that may throw; compute it before the spawn "
           "('long i = idx(k); a[i] = cilk_spawn f();')";
  return "the result of a spawned call must be stored directly into a "
         "variable or an lvalue";
}

/// Lets every alloca the window writes escape, through an empty inline asm
/// in the entry block. Otherwise, once the callee's sret or pointer
/// parameter is inferred nocapture, the alloca counts as local: LLVM may then
/// hoist its loads from after a sync to before it, across the slow path's
/// runtime calls, and a thief would read it while the child still writes it.
/// An escaped alloca may be written by any unknown call, so the sync's
/// runtime calls and suspend order those loads. The asm emits nothing.
/// After coro-split such an alloca is a slot of the frame, which the push
/// captures anyway, and the marker goes (SinkFrameInit.cpp).
void SpawnLowering::escapeDestinations(ArrayRef<Instruction *> Window) {
  SmallPtrSet<Value *, 4> Objects;
  auto *Spawned = cast<CallBase>(Window.front());
  for (Value *Arg : Spawned->args())
    if (Arg->getType()->isPointerTy())
      Objects.insert(getUnderlyingObject(Arg));
  for (Instruction *I : Window.drop_front()) {
    if (auto *SI = dyn_cast<StoreInst>(I); SI && SI->isVolatile())
      Objects.insert(getUnderlyingObject(SI->getPointerOperand()));
    else if (auto *Copy = dyn_cast<MemTransferInst>(I); Copy && Copy->isVolatile())
      Objects.insert(getUnderlyingObject(Copy->getDest()));
  }
  for (Value *Object : Objects) {
    auto *Alloca = dyn_cast<AllocaInst>(Object);
    if (!Alloca || Alloca->getParent() != &F.getEntryBlock() ||
        StatementTemporaries.count(Alloca))
      continue;
    IRBuilder<> B(Alloca->getNextNode());
    auto *Escape = InlineAsm::get(
        FunctionType::get(B.getVoidTy(), {Alloca->getType()}, false), "",
        "r,~{memory}", /*hasSideEffects=*/true);
    B.CreateCall(Escape, {Alloca})
        ->setMetadata(EscapeMarkerMD, MDNode::get(F.getContext(), {}));
  }
}

/// When the statement's destination is evaluated through control flow
/// (UBSan's checks around `out[i]`, a may-throw call computing the index),
/// the result's stores sit in a later block than the call. Evaluating the
/// destination before the spawn, as everywhere else, then means moving the
/// spawned call down to just before its first use, where the window can
/// follow it in one block; an invoke keeps its unwind destination. Only if
/// every use of the result (or of its sret slot) is in that block, which the
/// call's block dominates. Returns the call, moved or not.
CallBase *SpawnLowering::sinkToConsumers(CallBase *Call) {
  BasicBlock *Home = Call->getParent();
  Value *Sret = Call->arg_size() && Call->paramHasAttr(0, Attribute::StructRet)
                    ? getUnderlyingObject(Call->getArgOperand(0))
                    : nullptr;
  SmallVector<Instruction *, 4> Uses;
  for (User *U : Call->users())
    Uses.push_back(cast<Instruction>(U));
  if (Sret)
    for (User *U : Sret->users())
      if (auto *Copy = dyn_cast<MemTransferInst>(U);
          Copy && getUnderlyingObject(Copy->getSource()) == Sret)
        Uses.push_back(Copy);
  if (Uses.empty())
    return Call;
  BasicBlock *Target = Uses.front()->getParent();
  auto *Invoke = dyn_cast<InvokeInst>(Call);
  BasicBlock *Next = Invoke ? Invoke->getNormalDest() : Home;
  if (Target == Next || isa<PHINode>(Uses.front()) ||
      any_of(Uses, [&](Instruction *I) { return I->getParent() != Target; }))
    return Call;
  DominatorTree DT(*Home->getParent());
  if (!DT.dominates(Next, Target) ||
      any_of(Call->operands(), [&](Value *Op) {
        auto *OpI = dyn_cast<Instruction>(Op);
        return OpI && OpI != Call && !DT.dominates(OpI, Target);
      }))
    return Call;
  Instruction *First = Uses.front();
  for (Instruction *I : Uses)
    if (I->comesBefore(First))
      First = I;
  // The uses must be this statement's: its end follows them, with no other
  // mark, runtime call or spawn in between (a copy of the result after the
  // sync is not one).
  Instruction *I = First;
  while (!isSpawnEnd(*I) && !endsWindowScan(*I))
    I = I->getNextNode();
  if (!isSpawnEnd(*I))
    return Call;
  if (!Invoke) {
    compat::moveBefore(Call, First);
    return Call;
  }
  // invoke @f to %next unwind %pad   ==>   br %next
  // ... %target: invoke @f to %target.split unwind %pad; %target.split: uses
  BasicBlock *Rest = SplitBlock(Target, First);
  BasicBlock *Pad = Invoke->getUnwindDest();
  Target->getTerminator()->eraseFromParent();
  Invoke->removeFromParent();
  Invoke->insertInto(Target, Target->end());
  Invoke->setNormalDest(Rest);
  BranchInst::Create(Next, Home);
  for (PHINode &Phi : Pad->phis())
    Phi.setIncomingBlock(Phi.getBasicBlockIndex(Home), Target);
  return Invoke;
}

/// Where the parent continues once the call returns normally: after a call,
/// or at the start of an invoke's normal destination.
Instruction *firstAfterReturn(CallBase *Call) {
  if (auto *Invoke = dyn_cast<InvokeInst>(Call))
    return &*Invoke->getNormalDest()->getFirstInsertionPt();
  return Call->getNextNode();
}

} // namespace weft
