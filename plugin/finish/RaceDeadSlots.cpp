//===- RaceDeadSlots.cpp - Dead stack for the race detector (race mode) ---===//
//
// In a loop that spawns, each iteration's child and the next iteration's
// child are logically parallel, yet they may use the same stack slot of
// the spawning function: the 16-byte temporary that a spawned call's
// struct result lands in before it is copied out, for one. Each child
// writes the slot, the race detector sees two parallel writes to one
// address, and reports a race that the program does not have: the slot
// held another variable each time, dead in between.
//
// The lifetime markers say when a slot dies, so in race mode each one of
// a function that spawns is followed by a call that tells the detector:
// the end is an access that races with a child still using the slot (a
// free's check), and then the slot's accesses are forgotten:
//
//   call void @llvm.lifetime.end.p0(i64 16, ptr %tmp)
//     ==>
//   call void @llvm.lifetime.end.p0(i64 16, ptr %tmp)
//   call void @__weft_race_dead_slot(ptr %tmp, i64 16)
//
// (a size of -1, the whole alloca, becomes the alloca's size). Only -O1 and
// above emit lifetime markers; at -O0 each such temporary is a slot of its
// own for the whole function, which the children then share for real in
// the serial order, and no child's write there is read by another.
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

#include "finish/PostSplit.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
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

/// The bytes \p End ends the life of, or 0 if unknown.
uint64_t deadBytes(const IntrinsicInst &End, const DataLayout &DL) {
  auto *Size = cast<ConstantInt>(End.getArgOperand(0));
  if (!Size->isMinusOne())
    return Size->getZExtValue();
  if (const auto *Slot = dyn_cast<AllocaInst>(
          End.getArgOperand(1)->stripPointerCasts()))
    if (std::optional<TypeSize> Bytes = Slot->getAllocationSize(DL))
      if (!Bytes->isScalable())
        return Bytes->getFixedValue();
  return 0;
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

/// After each lifetime.end of \p F: the call that forgets the slot.
bool forgetEndedSlots(Function &F, const DataLayout &DL) {
  bool Changed = false;
  for (IntrinsicInst *End : callsOf(F, Intrinsic::lifetime_end)) {
    uint64_t Bytes = deadBytes(*End, DL);
    if (Bytes == 0)
      continue;
    IRBuilder<> B(End->getNextNode());
    B.SetCurrentDebugLocation(End->getDebugLoc()); // the scope's end
    B.CreateCall(getRuntimeFunction(*F.getParent(), RuntimeFn::RaceDeadSlot),
                 {End->getArgOperand(1), B.getInt64(Bytes)});
    Changed = true;
  }
  return Changed;
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
  const DataLayout &DL = M.getDataLayout();
  SmallPtrSet<const Function *, 16> Spawners = spawnersInRace(*SpawnHook);
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread))
      continue;
    Changed |= forgetRestoredStack(F);
    if (Spawners.contains(&F))
      Changed |= forgetEndedSlots(F, DL);
  }
  return Changed;
}

} // namespace weft
