//===- SpawnArguments.cpp - Arguments a spawned call passes in memory -----===//
//
// A spawned call's arguments are evaluated in the parent, before the spawn,
// as in OpenCilk: once __weft_push has made the continuation stealable, a
// thief may run the rest of the function (in a loop, the next iteration) in
// the same coroutine frame. An argument passed in a register is a value
// computed before the push. An argument passed in memory is an object, and
// in a spawning loop coro-split puts every escaped alloca that is not shown
// dead at each steal point into the frame, one slot for all iterations. Two
// kinds of such objects must become the statement's own temporaries
// (DynamicAllocas.cpp), so that each activation of a clone has its copy:
//
// - byval (a struct too large for registers). The callee's copy is made by
//   the call sequence, after the push, from the caller's object: a
//   temporary, or the loop's own struct variable. The thief's next
//   iteration rewrites that object while the child's copy is still to be
//   made. So the lowering makes the copy itself, before the push, into a
//   fresh statement temporary, and passes that:
//
//     call @f(ptr byval(%Big) %b)   ==>  lifetime.start(%arg)
//                                        memcpy volatile(%arg, %b)
//                                        coro.save; __weft_push
//                                        call @f(ptr byval(%Big) %arg)
//                                        lifetime.end(%arg)     ; the window
//
//   The copy is volatile so that MemCpyOpt does not forward %b into the call
//   again: before coro-split nothing seems to write %b between the copy and
//   the call.
//
// - An object passed by address that the caller builds for the call and
//   destroys after it, in the window: a class that is not trivial for calls
//   (std::string) passed by value. Clang 19 gives such an argument's
//   temporary no lifetime markers at all (unlike a temporary bound to a
//   reference), so nothing shows it dead at the steal point and it lands in
//   the frame, where the next iteration constructs its own string over the
//   one the child reads, and the window then destroys the wrong one. The
//   lowering adds the markers: a start before the temporary's first use,
//   an end after the window. It does so only for an alloca without markers
//   that a call in the window destroys (named variables are destroyed at
//   the end of their scope, never there) and whose every use lies between
//   that start and the window's end, with no steal point between the start
//   and the call. A class that is not trivial for calls but has a trivial
//   destructor leaves no such trace: for it, the front end lists the
//   call's temporaries (ArgumentTemporariesAttr, ArgumentLayout.cpp), and
//   a listed temporary that cannot be given its own lifetime is an error,
//   never a shared slot.
//
// inalloca and preallocated arguments (the 32-bit Windows C++ ABI) live in
// the caller's outgoing argument area, allocated with stacksave and a
// dynamic alloca around the call; a spawned call with one is rejected.
//
//===----------------------------------------------------------------------===//

#include "lower/ArgumentTemporaries.h"
#include "lower/SpawnLowering.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"

#define DEBUG_TYPE "weft-lower-spawns"

using namespace llvm;

STATISTIC(NumByValCopies,
          "byval arguments of spawned calls copied before the push");
STATISTIC(NumArgumentTemporaries,
          "Spawned calls' argument temporaries given lifetime markers");

namespace weft {
namespace {

/// Every instruction that uses \p AI, directly or through address
/// arithmetic, into \p Uses. False if the address flows anywhere that the
/// walks below could not follow (a phi, a select, a store of the address
/// itself, an integer), or if \p AI already has lifetime markers.
bool collectUses(AllocaInst *AI, SmallPtrSetImpl<Instruction *> &Uses) {
  SmallVector<Instruction *, 8> Work = {AI};
  while (!Work.empty()) {
    Instruction *Ptr = Work.pop_back_val();
    for (User *U : Ptr->users()) {
      auto *I = cast<Instruction>(U);
      if (I->isLifetimeStartOrEnd())
        return false;
      if (isa<GetElementPtrInst>(I) || isa<CastInst>(I)) {
        if (I->getType()->isPointerTy())
          Work.push_back(I);
        else if (!I->hasMetadata(LLVMContext::MD_nosanitize))
          return false; // the address escapes as an integer
        // else: a sanitizer's check (-fsanitize=undefined) turns the
        // address into an integer only to report it; a use like any other.
      } else if (auto *SI = dyn_cast<StoreInst>(I);
                 SI && SI->getValueOperand() == Ptr) {
        return false;
      } else if (!isa<CallBase>(I) && !isa<LoadInst>(I) && !isa<StoreInst>(I)) {
        return false;
      }
      Uses.insert(I);
    }
  }
  return true;
}

bool hasLifetimeMarkers(AllocaInst *AI) {
  return any_of(AI->users(), [](User *U) {
    auto *I = dyn_cast<Instruction>(U);
    return I && I->isLifetimeStartOrEnd();
  });
}

/// Whether a call in the window, after the spawned call, takes \p AI: the
/// caller destroying an argument it built for the call. Only a temporary of
/// the statement is destroyed there; a named variable lives on to the end
/// of its scope, and its address may have escaped to be used later.
bool destroyedInWindow(AllocaInst *AI, ArrayRef<Instruction *> Window) {
  return any_of(Window.drop_front(), [&](Instruction *I) {
    auto *CB = dyn_cast<CallBase>(I);
    return CB && !isa<IntrinsicInst>(CB) && is_contained(CB->args(), AI);
  });
}

/// Whether an instruction in \p Uses can run after \p End without passing
/// \p Start first: then the object outlives the window.
bool usedAfter(Instruction *End, Instruction *Start,
               const SmallPtrSetImpl<Instruction *> &Uses) {
  for (Instruction *I = End->getNextNode(); I; I = I->getNextNode())
    if (Uses.count(I))
      return true;
  SmallVector<BasicBlock *, 8> Work(successors(End->getParent()));
  SmallPtrSet<BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    bool Restarted = false;
    for (Instruction &I : *BB) {
      if (&I == Start) {
        Restarted = true;
        break;
      }
      if (Uses.count(&I))
        return true;
    }
    if (!Restarted)
      append_range(Work, successors(BB));
  }
  return false;
}

/// Where an object with the uses \p Uses begins: its first use in the
/// nearest block that dominates them all (or that block's end). Null if a
/// use is unreachable.
Instruction *firstUse(const SmallPtrSetImpl<Instruction *> &Uses,
                      DominatorTree &DT) {
  BasicBlock *Common = nullptr;
  for (Instruction *I : Uses) {
    if (!DT.isReachableFromEntry(I->getParent()))
      return nullptr;
    Common = Common ? DT.findNearestCommonDominator(Common, I->getParent())
                    : I->getParent();
  }
  for (Instruction &I : *Common)
    if (Uses.count(&I))
      return &I;
  return Common->getTerminator();
}

} // namespace

/// Whether \p I may let a thief into the frame, or wait for one: a spawned
/// call (lowered or not) or a sync (a mark still, or lowered: coroutine
/// saves and suspends).
bool SpawnLowering::isStealPoint(const Instruction &I) const {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  if (SpawnSet.count(CB))
    return true;
  const Function *Callee = CB->getCalledFunction();
  return Callee && (Callee->getName() == SyncMarkerName ||
                    Callee->getIntrinsicID() == Intrinsic::coro_save ||
                    Callee->getIntrinsicID() == Intrinsic::coro_suspend);
}

/// Whether a steal point (another spawn, a sync) lies on a path
/// from \p Start to \p Call. Such a temporary would be live across it, in
/// whichever clone resumes there.
bool SpawnLowering::stealPointBetween(Instruction *Start, CallBase *Call) const {
  auto Scan = [&](Instruction *From, Instruction *To) {
    for (Instruction *I = From; I && I != To; I = I->getNextNode())
      if (isStealPoint(*I))
        return true;
    return false;
  };
  BasicBlock *StartBB = Start->getParent();
  if (StartBB == Call->getParent()) // Start dominates Call
    return Scan(Start, Call);
  if (Scan(&Call->getParent()->front(), Call))
    return true;
  SmallVector<BasicBlock *, 8> Work(predecessors(Call->getParent()));
  SmallPtrSet<BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (BB == StartBB) {
      if (Scan(Start, nullptr))
        return true;
      continue;
    }
    if (Scan(&BB->front(), nullptr))
      return true;
    append_range(Work, predecessors(BB));
  }
  return false;
}

/// Whether the statement goes on past \p WindowEnd to destroy an object
/// the spawned call was given: the window stops at the first block
/// boundary, so cleanups in later blocks (the array behind a
/// std::initializer_list argument, destroyed in a loop; a class argument
/// that a conditional expression built, destroyed behind Clang's cleanup
/// flags) would run in the continuation, where a thief runs them while the
/// child still reads the objects. The walk follows the normal paths from
/// the window's end to the statement's end marker (or a steal point) and
/// looks for a call that takes one of those objects.
bool SpawnLowering::temporariesOutliveWindow(CallBase *Call,
                                             Instruction *WindowEnd) const {
  // The objects the call is given: an alloca it gets the address of, or
  // one whose address it loads from an alloca it gets the contents of (the
  // array behind an initializer_list passed in registers).
  SmallPtrSet<const Value *, 4> Objects;
  auto AddObject = [&](const Value *Ptr) {
    if (auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr)))
      Objects.insert(AI);
  };
  for (Value *Arg : Call->args()) {
    if (!Arg->getType()->isPointerTy())
      continue;
    AddObject(Arg);
    auto *Load = dyn_cast<LoadInst>(Arg);
    auto *Holder = Load ? dyn_cast<AllocaInst>(
                              getUnderlyingObject(Load->getPointerOperand()))
                        : nullptr;
    if (!Holder)
      continue;
    for (const User *U : Holder->users())
      if (auto *SI = dyn_cast<StoreInst>(U))
        if (SI->getValueOperand()->getType()->isPointerTy())
          AddObject(SI->getValueOperand());
    for (const User *U : Holder->users())
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U))
        for (const User *V : GEP->users())
          if (auto *SI = dyn_cast<StoreInst>(V);
              SI && SI->getPointerOperand() == GEP &&
              SI->getValueOperand()->getType()->isPointerTy())
            AddObject(SI->getValueOperand());
  }
  if (Objects.empty())
    return false;
  // A destructor (any call but an intrinsic) or the end of the lifetime.
  auto TakesObject = [&](const Instruction &I) {
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || (isa<IntrinsicInst>(CB) && !I.isLifetimeStartOrEnd()))
      return false;
    return any_of(CB->args(), [&](const Value *Arg) {
      return Arg->getType()->isPointerTy() &&
             Objects.count(getUnderlyingObject(Arg));
    });
  };
  SmallVector<Instruction *, 8> Work = {WindowEnd->getNextNode()};
  if (auto *Invoke = dyn_cast<InvokeInst>(WindowEnd))
    Work = {&Invoke->getNormalDest()->front()};
  SmallPtrSet<BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    for (Instruction *I = Work.pop_back_val(); I; I = I->getNextNode()) {
      if (isSpawnEnd(*I) || isStealPoint(*I))
        break;
      if (TakesObject(*I))
        return true;
      if (!I->isTerminator())
        continue;
      // Normal paths only: an unwind path is the exception's, which the
      // landing pads handle (LandingPadSyncs.cpp).
      if (auto *Invoke = dyn_cast<InvokeInst>(I)) {
        if (Seen.insert(Invoke->getNormalDest()).second)
          Work.push_back(&Invoke->getNormalDest()->front());
        continue;
      }
      for (BasicBlock *Next : successors(I))
        if (!Next->isEHPad() && Seen.insert(Next).second)
          Work.push_back(&Next->front());
    }
  }
  return false;
}

bool SpawnLowering::checkArgumentsSupported(CallBase *Call) {
  for (unsigned I = 0, E = Call->arg_size(); I != E; ++I)
    if (Call->isInAllocaArgument(I) ||
        Call->paramHasAttr(I, Attribute::Preallocated)) {
      reportUnsupported(F,
                        "a spawned call cannot take a class by value in the "
                        "32-bit Windows C++ ABI (the caller builds it in its "
                        "outgoing argument area); pass it by reference",
                        Call);
      return false;
    }
  return true;
}

Instruction *SpawnLowering::privatizeArguments(
    CallBase *Call, SmallVectorImpl<Instruction *> &Window, Instruction *End) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  BasicBlock &Entry = F.getEntryBlock();
  // Ends an object's lifetime as the window's new last instruction: after
  // its current end, or at the start of an invoke's normal destination when
  // nothing follows the invoke yet.
  auto EndLifetime = [&](Value *Object, uint64_t Bytes) {
    Instruction *Before =
        isa<InvokeInst>(End)
            ? &*cast<InvokeInst>(End)->getNormalDest()->getFirstInsertionPt()
            : End->getNextNode();
    IRBuilder<> B(Before);
    End = compat::lifetimeEnd(B, Object, Bytes);
    Window.push_back(End);
  };

  std::optional<DominatorTree> DT;
  for (unsigned ArgNo = 0, E = Call->arg_size(); ArgNo != E; ++ArgNo) {
    Value *Arg = Call->getArgOperand(ArgNo);
    if (Type *Ty = Call->getParamByValType(ArgNo)) {
      IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
      Align Alignment =
          Call->getParamAlign(ArgNo).value_or(DL.getABITypeAlign(Ty));
      AllocaInst *Copy = B.CreateAlloca(Ty, nullptr, "weft.byval");
      Copy->setAlignment(std::max(Alignment, DL.getPrefTypeAlign(Ty)));
      uint64_t Bytes = DL.getTypeAllocSize(Ty);
      B.SetInsertPoint(Call);
      compat::lifetimeStart(B, Copy, Bytes);
      B.CreateMemCpy(Copy, Copy->getAlign(), Arg, Alignment, Bytes,
                     /*isVolatile=*/true);
      Call->setArgOperand(ArgNo, Copy);
      EndLifetime(Copy, Bytes);
      ++NumByValCopies;
      continue;
    }
    auto *AI = dyn_cast<AllocaInst>(Arg);
    bool Listed = isListedTemporary(Call, ArgNo);
    if (!AI || !AI->isStaticAlloca() || AI->getParent() != &Entry ||
        hasLifetimeMarkers(AI) || !(Listed || destroyedInWindow(AI, Window)))
      continue;
    SmallPtrSet<Instruction *, 8> Uses;
    if (!DT)
      DT.emplace(F);
    Instruction *Start = collectUses(AI, Uses) ? firstUse(Uses, *DT) : nullptr;
    if (!Start || stealPointBetween(Start, Call) ||
        usedAfter(End, Start, Uses)) {
      if (Listed)
        reportUnsupported(F,
                          "internal error: a class passed by value to this "
                          "spawned call cannot get a temporary of its own; "
                          "pass it by const reference",
                          Call);
      continue;
    }
    IRBuilder<> B(Start);
    uint64_t Bytes = *AI->getAllocationSize(DL);
    compat::lifetimeStart(B, AI, Bytes);
    EndLifetime(AI, Bytes);
    ++NumArgumentTemporaries;
  }
  return End;
}

} // namespace weft
