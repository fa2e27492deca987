//===- RaceScopeEnds.cpp - A slot's end of life, for the race detector ----===//
//
// A spawned child that writes a local of its parent's loop body, while the
// parent's continuation leaves that body, writes memory that is no longer
// the variable's: the next iteration's variable (or anything else) may
// have it by the time the child writes.
//
//   for (int r = 0; r < rounds; ++r) {
//     int data[8];
//     cilk_spawn fill(data, 8, r);   // the child writes data ...
//   }                                // ... which dies here, in the
//   cilk_sync;                       //     continuation
//
// So in race mode the end of a slot's life is an access, checked like a
// free: it races with every logically parallel access to the slot's bytes
// (a child's write above), and then the slot's history goes, so that the
// next variable there starts fresh. Clang's lifetime markers say where a
// slot's life ends; each one in a function that spawns is followed by a
// call to the detector, at the marker's line:
//
//   call void @llvm.lifetime.end.p0(i64 32, ptr %data)
//     ==>
//   call void @llvm.lifetime.end.p0(i64 32, ptr %data)
//   call void @__weft_race_dead_slot(ptr %data, i64 32)
//
// (a size of -1, the whole alloca, becomes the alloca's size). Before the
// optimizer, only a slot whose address the function lets go of (to a call,
// a store) can be a child's; the others are left alone, to stay in
// registers. And only an end that a path reaches from a spawn without a
// sync can race: the end of `x` in `x = cilk_spawn f(); ...; cilk_sync;`
// cannot, and gets no call. This runs in
// the lowering, before the coroutine split: a slot that lives across a
// spawn moves into the spawning function's frame there, which drops its
// markers, and the call, whose operand becomes the slot's address in the
// frame, is what is left of them. Functions the optimizer inlines into a
// spawning one later bring markers of their own; the post-split step
// (finish/RaceDeadSlots.cpp) follows those the same way. Clang emits
// lifetime markers at -O1 and above; at -O0 each local is a slot of its
// own for the whole function, and a child that writes one, in a loop,
// races with the next iteration's child instead.
//
// VLAs die when the stack is restored over them, which RaceDeadSlots.cpp
// follows in every function. An alloca() block lives until its function
// returns, after the function's implicit sync: no child outlives it.
//
//===----------------------------------------------------------------------===//

#include "analysis/RaceScopeEnds.h"
#include "shared/LLVMCompat.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace weft {
namespace {

/// Whether a child may hold the address of the slot \p End ends: a slot
/// whose address never leaves the function's own loads and stores (a loop
/// counter, a scalar the optimizer will keep in a register) is the
/// function's alone, and a call that took its address would keep it in
/// memory, where the sanitizer then checks every access to it.
bool mayBeShared(const IntrinsicInst &End) {
  const Value *Slot = getUnderlyingObject(compat::lifetimeObject(End));
  const auto *Alloca = dyn_cast<AllocaInst>(Slot);
  return !Alloca || compat::mayBeCaptured(Alloca, /*ReturnCaptures=*/true);
}

/// Whether a child may still be running when \p End ends its slot: a path
/// leads back from it to a spawn without passing a sync (or a function's
/// exit, which syncs). A slot that dies after the sync, as `x` of
/// `x = cilk_spawn f(); ...; cilk_sync;` does, races with no child, and
/// its call would only keep it in memory.
bool mayEndWhileChildRuns(const IntrinsicInst &End, const Module &M) {
  const Function *Spawn = M.getFunction(runtimeName(RuntimeFn::RaceSpawn));
  if (!Spawn)
    return false;
  const Function *Sync = M.getFunction(runtimeName(RuntimeFn::RaceSync));
  const Function *Exit = M.getFunction(runtimeName(RuntimeFn::RaceExit));
  // The last hook of \p BB before \p Before (or before its end).
  enum class Last { Spawned, Synced, None };
  auto lastHook = [&](const BasicBlock &BB, const Instruction *Before) {
    auto It = Before ? std::next(Before->getReverseIterator()) : BB.rbegin();
    for (; It != BB.rend(); ++It) {
      const auto *Call = dyn_cast<CallInst>(&*It);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (Callee && Callee == Spawn)
        return Last::Spawned;
      if (Callee && (Callee == Sync || Callee == Exit))
        return Last::Synced;
    }
    return Last::None;
  };
  SmallVector<const BasicBlock *, 8> Work;
  SmallPtrSet<const BasicBlock *, 16> Seen;
  auto follow = [&](const BasicBlock &BB, const Instruction *Before) {
    switch (lastHook(BB, Before)) {
    case Last::Spawned:
      return true;
    case Last::Synced:
      return false;
    case Last::None:
      for (const BasicBlock *Pred : predecessors(&BB))
        if (Seen.insert(Pred).second)
          Work.push_back(Pred);
      return false;
    }
    return false;
  };
  if (follow(*End.getParent(), &End))
    return true;
  while (!Work.empty())
    if (follow(*Work.pop_back_val(), nullptr))
      return true;
  return false;
}

/// Whether \p End is already followed by the detector's call.
bool isReported(const IntrinsicInst &End, FunctionCallee DeadSlot) {
  const auto *Next = dyn_cast_or_null<CallInst>(End.getNextNode());
  return Next && Next->getCalledOperand() == DeadSlot.getCallee() &&
         Next->getArgOperand(0) == compat::lifetimeObject(End);
}

} // namespace

bool reportScopeEnds(Function &F, bool SharedOnly) {
  Module &M = *F.getParent();
  const DataLayout &DL = M.getDataLayout();
  FunctionCallee DeadSlot = getRuntimeFunction(M, RuntimeFn::RaceDeadSlot);
  SmallVector<IntrinsicInst *, 16> Ends;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && II->getIntrinsicID() == Intrinsic::lifetime_end &&
          !isReported(*II, DeadSlot) && (!SharedOnly || mayBeShared(*II)) &&
          mayEndWhileChildRuns(*II, M))
        Ends.push_back(II);
  bool Changed = false;
  for (IntrinsicInst *End : Ends) {
    std::optional<uint64_t> Bytes = compat::lifetimeBytes(*End, DL);
    if (!Bytes || *Bytes == 0)
      continue;
    IRBuilder<> B(End->getNextNode());
    B.SetCurrentDebugLocation(End->getDebugLoc()); // the scope's end
    B.CreateCall(DeadSlot, {compat::lifetimeObject(*End), B.getInt64(*Bytes)});
    Changed = true;
  }
  return Changed;
}

} // namespace weft
