//===- DynamicAllocas.cpp - alloca() and VLAs in spawning functions -------===//
//
// A dynamic alloca (a C99 VLA, alloca(), an alloca in a loop) must stay
// alive until its scope ends, even when a thief runs the rest of the
// function. Where the memory comes from depends on which clone runs it:
//
// - Fast clone (ramp). It only ever runs with its frame not stolen, and a
//   stolen fast clone parks its whole stack until the slow clone finishes
//   (LowerSpawns.cpp). So an ordinary stack alloca stays valid for the slow
//   clone too: the fast path keeps the serial elision's cost and behaviour,
//   stacksave/stackrestore included.
// - Slow clone (F.resume). It runs on a thief's stack, which it leaves at
//   the next steal point, so its allocations come from an arena hung off the
//   frame (runtime/arena.cpp), released when the function completes. Its
//   stackrestores do nothing: scope ends give nothing back until the end.
//
// coro-split cannot take a dynamic alloca whose address is live across a
// suspend, and which clone runs what is only known after the split. So the
// lowering hides each one behind a marker call that the frame builder treats
// like any call returning a pointer (spilled like any other value):
//
//   %a = alloca i32, i64 %n         ==>  %a = call ptr @__weft_dynamic_alloca(
//                                              ptr %frame.arena, i64 %bytes, i64 4)
//   %s = call ptr @llvm.stacksave() ==>  %s = call ptr @__weft_stack_save()
//   call void @llvm.stackrestore(%s)==>  call void @__weft_stack_restore(ptr %s)
//
// and after the split finish/PlaceDynamicAllocas.cpp puts each marker back:
// in the ramp as the original instruction, in the slow clone as an arena
// call (or nothing).
// The ramp is the clone that allocates the coroutine frame; the slow clone
// receives it. The ramp must not be inlined before then (its allocas would
// outlive each call in the caller, and it would no longer be told apart), so
// a spawning function with dynamic allocas is noinline.
//
// Statement temporaries. A spawned statement's temporaries (the std::string
// built for `spawn f(std::string(s))`) belong to the child: their lifetime
// ends in the spawn's window, before the steal point. But coro-split puts
// every escaped alloca of a loop that contains a suspend into the shared
// frame, so in a spawning loop the thief's next iteration would build its
// temporary where the child is still reading the last one. Such an alloca
// becomes each activation's own: every use of it is given the address by
// a marker call of its own, just before the use, naming the temporary by
// an id:
//
//   %t = alloca %T  (entry)         ==>  %t1 = call ptr @__weft_statement_alloca(
//   lifetime.start(%t)                         i64 size, i64 align, i64 id)
//   call @T(%t) ...                      lifetime.start(%t1)
//                                        %t2 = call ptr @__weft_statement_alloca(
//                                              i64 size, i64 align, i64 id)
//                                        call @T(%t2) ...
//
// and after the split the calls with one id become one static alloca of
// whichever function holds them (finish/PlaceDynamicAllocas.cpp): each
// activation of the ramp or the slow clone has its own. The temporary's
// lifetime markers become marker calls too (__weft_statement_lifetime_start
// and _end, on a marker call's address), since a lifetime intrinsic may only
// mark an alloca; they are intrinsics again on the placed alloca, where
// the race detector reads its lifetime end as the slot's death.
//
// One marker per use, because an address held in a value would itself go
// through the frame: the spawned call comes after the steal point's
// coro.save, which coro-split treats as a suspend, so it spills the address
// to the frame and reloads it after the push. A victim reloading it after
// its child returns (the window's destructors, or the cleanups on a stolen
// child's unwind path, SpawnExceptions.cpp) would read the address that the
// thief's next iteration stored there, and destroy that iteration's
// temporary. A temporary is never live across a suspend (its lifetime ends
// before its steal point's, and a landing pad destroys it before it waits,
// LandingPadSyncs.cpp), so the activation that uses it is the one that
// built it. Inlined, a ramp would bring its markers into another function,
// where two live instances of one temporary (a recursive call in the
// statement's own arguments) would share one alloca; so, as with dynamic
// allocas, a function with statement temporaries is noinline.
//
//===----------------------------------------------------------------------===//

#include "lower/SpawnLowering.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <algorithm>

#define DEBUG_TYPE "weft-lower-spawns"

using namespace llvm;

STATISTIC(NumDynamicAllocas, "Dynamic allocas in spawning functions");
STATISTIC(NumStatementTemporaries,
          "Spawned statements' temporaries kept out of the frame");

namespace weft {
namespace {

Function *declareMarker(Module &M, StringRef Name, FunctionType *Ty) {
  auto *Fn = cast<Function>(M.getOrInsertFunction(Name, Ty).getCallee());
  Fn->setDoesNotThrow();
  Fn->setWillReturn();
  return Fn;
}

bool isStackIntrinsic(const Instruction &I, Intrinsic::ID ID) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->getIntrinsicID() == ID;
}

} // namespace

bool SpawnLowering::hasDynamicAllocas() const {
  for (const Instruction &I : instructions(F))
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !AI->isStaticAlloca())
      return true;
  return false;
}

void SpawnLowering::hideDynamicAllocas() {
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I64 = Type::getInt64Ty(C);
  Function *Alloc = declareMarker(
      M, DynamicAllocaName, FunctionType::get(Ptr, {Ptr, I64, I64}, false));
  Function *Save =
      declareMarker(M, StackSaveName, FunctionType::get(Ptr, false));
  Function *Restore = declareMarker(
      M, StackRestoreName, FunctionType::get(Type::getVoidTy(C), {Ptr}, false));
  const DataLayout &DL = M.getDataLayout();

  SmallVector<Instruction *, 8> Replaced;
  for (Instruction &I : instructions(F)) {
    IRBuilder<> B(&I);
    Value *Marker = nullptr;
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !AI->isStaticAlloca()) {
      Value *Count = B.CreateZExtOrTrunc(AI->getArraySize(), I64);
      Value *Bytes = B.CreateMul(
          Count, B.getInt64(DL.getTypeAllocSize(AI->getAllocatedType())),
          "weft.vla.bytes");
      Marker = B.CreateCall(
          Alloc, {ArenaSlot, Bytes, B.getInt64(AI->getAlign().value())},
          AI->getName());
      ++NumDynamicAllocas;
    } else if (isStackIntrinsic(I, Intrinsic::stacksave)) {
      Marker = B.CreateCall(Save, {}, I.getName());
    } else if (isStackIntrinsic(I, Intrinsic::stackrestore)) {
      Marker = B.CreateCall(Restore, {I.getOperand(0)});
    } else {
      continue;
    }
    I.replaceAllUsesWith(Marker);
    Replaced.push_back(&I);
  }
  for (Instruction *I : Replaced)
    I->eraseFromParent();
  F.addFnAttr(Attribute::NoInline);
  F.removeFnAttr(Attribute::AlwaysInline);
}

void SpawnLowering::noteStatementTemporaries(ArrayRef<Instruction *> Window) {
  for (Instruction *I : Window.drop_front())
    if (auto *End = dyn_cast<IntrinsicInst>(I);
        End && End->getIntrinsicID() == Intrinsic::lifetime_end)
      if (auto *AI = dyn_cast<AllocaInst>(compat::lifetimeObject(*End));
          AI && AI->isStaticAlloca())
        StatementTemporaries.insert(AI);
}

/// The one lifetime start of \p AI, if it dominates every other use: then
/// each pass through it is a fresh object.
static IntrinsicInst *soleLifetimeStart(AllocaInst *AI, DominatorTree &DT) {
  IntrinsicInst *Start = nullptr;
  for (User *U : AI->users())
    if (auto *II = dyn_cast<IntrinsicInst>(U);
        II && II->getIntrinsicID() == Intrinsic::lifetime_start) {
      if (Start)
        return nullptr;
      Start = II;
    }
  if (!Start)
    return nullptr;
  for (User *U : AI->users())
    if (U != Start && !DT.dominates(Start, cast<Instruction>(U)))
      return nullptr;
  return Start;
}

/// Replaces each lifetime intrinsic on \p AI by a call of \p StartMarker or
/// \p EndMarker on it; returns the one that replaced \p Start.
static CallInst *hideLifetimeMarkers(AllocaInst *AI, IntrinsicInst *Start,
                                     Function *StartMarker,
                                     Function *EndMarker) {
  CallInst *HiddenStart = nullptr;
  SmallVector<IntrinsicInst *, 4> Markers;
  for (User *U : AI->users())
    if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      Markers.push_back(II);
  for (IntrinsicInst *II : Markers) {
    bool IsStart = II->getIntrinsicID() == Intrinsic::lifetime_start;
    auto *Hidden = CallInst::Create(IsStart ? StartMarker : EndMarker, {AI},
                                    "", II->getIterator());
    Hidden->setDebugLoc(II->getDebugLoc());
    if (II == Start)
      HiddenStart = Hidden;
    II->eraseFromParent();
  }
  return HiddenStart;
}

/// A fresh id for a statement temporary: one more than any in the module.
static uint64_t nextTemporaryId(Function *Marker) {
  uint64_t Next = 0;
  for (User *U : Marker->users())
    if (auto *Id = dyn_cast<ConstantInt>(cast<CallInst>(U)->getArgOperand(2)))
      Next = std::max(Next, Id->getZExtValue() + 1);
  return Next;
}

void SpawnLowering::privatizeStatementTemporaries() {
  if (StatementTemporaries.empty())
    return;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  // Not readnone: LICM must not hoist it out of the loop, and no two calls
  // may be merged. Not noalias either: the calls for one temporary return
  // the same memory.
  Function *Marker = declareMarker(
      M, StatementAllocaName,
      FunctionType::get(PointerType::getUnqual(C), {I64, I64, I64}, false));
  Marker->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  // Reading and writing the temporary, as far as any pass can tell, so that
  // none moves its accesses across the start or the end.
  FunctionType *LifetimeTy = FunctionType::get(
      Type::getVoidTy(C), {PointerType::getUnqual(C)}, false);
  Function *StartMarker =
      declareMarker(M, StatementLifetimeStartName, LifetimeTy);
  Function *EndMarker = declareMarker(M, StatementLifetimeEndName, LifetimeTy);
  for (Function *Lifetime : {StartMarker, EndMarker}) {
    Lifetime->setMemoryEffects(MemoryEffects::argMemOnly());
    Lifetime->addParamAttr(0, compat::noCapture(C));
  }
  const DataLayout &DL = M.getDataLayout();
  DominatorTree DT(F);
  bool Privatized = false;
  for (AllocaInst *AI : StatementTemporaries) {
    IntrinsicInst *Start = soleLifetimeStart(AI, DT);
    if (!Start)
      continue; // stays in the frame, as any other alloca
    Value *Args[] = {ConstantInt::get(I64, *AI->getAllocationSize(DL)),
                     ConstantInt::get(I64, AI->getAlign().value()),
                     ConstantInt::get(I64, nextTemporaryId(Marker))};
    CallInst *HiddenStart =
        hideLifetimeMarkers(AI, Start, StartMarker, EndMarker);
    // Each use its own call, just before it (a phi's at the end of its
    // incoming block), so that no address reaches a use through the frame.
    while (!AI->use_empty()) {
      Use &U = *AI->use_begin();
      auto *User = cast<Instruction>(U.getUser());
      Instruction *Before = User;
      if (auto *Phi = dyn_cast<PHINode>(User))
        Before = Phi->getIncomingBlock(U)->getTerminator();
      U.set(CallInst::Create(Marker, Args, "", Before->getIterator()));
    }
    // The alloca that the calls become takes the name from here.
    HiddenStart->getArgOperand(0)->takeName(AI);
    AI->eraseFromParent();
    ++NumStatementTemporaries;
    Privatized = true;
  }
  if (Privatized) {
    F.addFnAttr(Attribute::NoInline);
    F.removeFnAttr(Attribute::AlwaysInline);
  }
}

} // namespace weft
