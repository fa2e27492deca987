//===- RaceDeadSlots.cpp - Dead stack for the race detector (race mode) ---===//
//
// The end of a stack slot's life is an access that can race with a child
// still using the slot, and then the slot's history goes, so that the next
// variable at its address starts fresh: in a loop that spawns, each
// iteration's child and the next one's may use one slot of the spawning
// function (the temporary a spawned call's struct result lands in), dead
// in between, and must not be seen as two parallel writes. The lowering
// follows each lifetime.end of a spawning function whose slot a child may
// have with the detector's call (analysis/RaceScopeEnds.cpp); here, after
// the optimizer, the same is done for every marker left without one: those
// it brought in by inlining, and those of slots it kept in memory.
//
// Dynamic allocas (VLAs, alloca()) die when the stack pointer is restored
// over them, and in any function, spawning or not: the race runtime
// forgets the stack below a returning call from the lowest frame it saw,
// but a function that restores its stack before it returns is seen above
// what its VLAs used. So in race mode every stackrestore also says what it
// frees, which races with a child still writing a VLA of the loop body
// that the continuation leaves:
//
//   call void @llvm.stackrestore.p0(ptr %saved)
//     ==>
//   %now = call ptr @llvm.stacksave.p0()
//   call void @__weft_race_dead_slot(ptr %now, i64 (%saved - %now))
//   call void @llvm.stackrestore.p0(ptr %saved)
//
//===----------------------------------------------------------------------===//

#include "analysis/RaceScopeEnds.h"
#include "finish/PostSplit.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace weft {
namespace {

/// The functions that spawn in race mode: those that call the spawn hook.
SmallPtrSet<const Function *, 16> spawnersInRace(const Function &SpawnHook) {
  SmallPtrSet<const Function *, 16> Spawners;
  for (const User *U : SpawnHook.users())
    if (const auto *Call = dyn_cast<CallInst>(U))
      Spawners.insert(Call->getFunction());
  return Spawners;
}

/// The calls of intrinsic \p ID in \p F, gathered before any is changed.
SmallVector<IntrinsicInst *, 16> callsOf(Function &F, Intrinsic::ID ID) {
  SmallVector<IntrinsicInst *, 16> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && II->getIntrinsicID() == ID)
        Calls.push_back(II);
  return Calls;
}

/// Before each stackrestore of \p F: the call that forgets what it frees.
bool forgetRestoredStack(Function &F) {
  SmallVector<IntrinsicInst *, 16> Restores =
      callsOf(F, Intrinsic::stackrestore);
  for (IntrinsicInst *Restore : Restores) {
    IRBuilder<> B(Restore);
    Value *Saved = Restore->getArgOperand(0);
    Value *Now = B.CreateStackSave();
    Value *Bytes = B.CreateSub(B.CreatePtrToInt(Saved, B.getInt64Ty()),
                               B.CreatePtrToInt(Now, B.getInt64Ty()));
    B.CreateCall(getRuntimeFunction(*F.getParent(), RuntimeFn::RaceDeadSlot),
                 {Now, Bytes});
  }
  return !Restores.empty();
}

} // namespace

bool forgetDeadSlotsInRace(Module &M) {
  // Race mode is where the spawn hook is declared.
  Function *SpawnHook = M.getFunction(runtimeName(RuntimeFn::RaceSpawn));
  if (!SpawnHook)
    return false;
  SmallPtrSet<const Function *, 16> Spawners = spawnersInRace(*SpawnHook);
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread))
      continue;
    Changed |= forgetRestoredStack(F);
    if (Spawners.contains(&F))
      Changed |= reportScopeEnds(F, /*SharedOnly=*/false);
  }
  return Changed;
}

} // namespace weft
