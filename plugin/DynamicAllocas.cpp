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
// and FrameToStack, after the split, puts each marker back: in the ramp as
// the original instruction, in the slow clone as an arena call (or nothing).
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
// is hidden the same way, its marker placed at its lifetime start:
//
//   %t = alloca %T  (entry)         ==>  %t = call ptr @__weft_statement_alloca(
//   lifetime.start(%t)                         i64 size, i64 align)
//                                        lifetime.start(%t)
//
// and after the split it becomes a static alloca of whichever function
// holds it: each activation of the ramp or the slow clone has its own.
//
//===----------------------------------------------------------------------===//

#include "LowerSpawns.h"
#include "SpawnLowering.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "weft-lower-spawns"

using namespace llvm;

STATISTIC(NumDynamicAllocas, "Dynamic allocas in spawning functions");
STATISTIC(NumStatementTemporaries,
          "Spawned statements' temporaries kept out of the frame");

namespace weft {
namespace {

constexpr const char *DynamicAllocaName = "__weft_dynamic_alloca";
constexpr const char *StackSaveName = "__weft_stack_save";
constexpr const char *StackRestoreName = "__weft_stack_restore";
constexpr const char *StatementAllocaName = "__weft_statement_alloca";

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
      if (auto *AI = dyn_cast<AllocaInst>(End->getArgOperand(1));
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

void SpawnLowering::privatizeStatementTemporaries() {
  if (StatementTemporaries.empty())
    return;
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(M.getContext());
  // Not readnone: LICM must not hoist it out of the loop.
  Function *Marker = declareMarker(
      M, StatementAllocaName,
      FunctionType::get(PointerType::getUnqual(M.getContext()), {I64, I64},
                        false));
  Marker->addRetAttr(Attribute::NoAlias);
  const DataLayout &DL = M.getDataLayout();
  DominatorTree DT(F);
  for (AllocaInst *AI : StatementTemporaries) {
    IntrinsicInst *Start = soleLifetimeStart(AI, DT);
    if (!Start)
      continue; // stays in the frame, as any other alloca
    IRBuilder<> B(Start);
    Value *Size = B.getInt64(*AI->getAllocationSize(DL));
    CallInst *Private =
        B.CreateCall(Marker, {Size, B.getInt64(AI->getAlign().value())});
    Private->takeName(AI);
    AI->replaceAllUsesWith(Private);
    AI->eraseFromParent();
    ++NumStatementTemporaries;
  }
}

/// Each statement temporary becomes a static alloca of the function that
/// holds its marker after the split (and after any inlining).
static bool placeStatementTemporaries(Module &M) {
  Function *Marker = M.getFunction(StatementAllocaName);
  if (!Marker)
    return false;
  while (!Marker->use_empty()) {
    auto *CI = cast<CallInst>(Marker->user_back());
    BasicBlock &Entry = CI->getFunction()->getEntryBlock();
    IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
    auto Bytes = cast<ConstantInt>(CI->getArgOperand(0))->getZExtValue();
    AllocaInst *AI =
        B.CreateAlloca(ArrayType::get(B.getInt8Ty(), Bytes), nullptr);
    AI->setAlignment(
        Align(cast<ConstantInt>(CI->getArgOperand(1))->getZExtValue()));
    AI->takeName(CI);
    CI->replaceAllUsesWith(AI);
    CI->eraseFromParent();
  }
  Marker->eraseFromParent();
  return true;
}

bool placeDynamicAllocas(Module &M,
                         const SmallPtrSetImpl<Function *> &FastClones) {
  Function *Alloc = M.getFunction(DynamicAllocaName);
  Function *Save = M.getFunction(StackSaveName);
  Function *Restore = M.getFunction(StackRestoreName);
  bool Placed = placeStatementTemporaries(M);
  if (!Alloc && !Save && !Restore)
    return Placed;
  LLVMContext &C = M.getContext();
  FunctionCallee ArenaAlloc = M.getOrInsertFunction(
      "__weft_arena_alloc", PointerType::getUnqual(C),
      PointerType::getUnqual(C), Type::getInt64Ty(C), Type::getInt64Ty(C));
  if (auto *Decl = dyn_cast<Function>(ArenaAlloc.getCallee()))
    Decl->setDoesNotThrow();

  SmallVector<CallInst *, 16> Markers;
  for (Function *Fn : {Alloc, Save, Restore})
    if (Fn)
      for (User *U : Fn->users())
        if (auto *CI = dyn_cast<CallInst>(U))
          Markers.push_back(CI);

  for (CallInst *CI : Markers) {
    bool Slow = !FastClones.count(CI->getFunction());
    Function *Callee = CI->getCalledFunction();
    IRBuilder<> B(CI);
    Value *Replacement = nullptr;
    if (Callee == Alloc && Slow) {
      Replacement = B.CreateCall(ArenaAlloc, {CI->getArgOperand(0),
                                              CI->getArgOperand(1),
                                              CI->getArgOperand(2)});
    } else if (Callee == Alloc) {
      AllocaInst *AI = B.CreateAlloca(B.getInt8Ty(), CI->getArgOperand(1));
      AI->setAlignment(
          Align(cast<ConstantInt>(CI->getArgOperand(2))->getZExtValue()));
      Replacement = AI;
    } else if (Callee == Save) {
      Replacement = Slow ? static_cast<Value *>(
                               ConstantPointerNull::get(B.getPtrTy()))
                         : B.CreateStackSave();
    } else if (!Slow) {
      B.CreateStackRestore(CI->getArgOperand(0));
    }
    if (Replacement) {
      Replacement->takeName(CI);
      CI->replaceAllUsesWith(Replacement);
    }
    CI->eraseFromParent();
  }
  for (Function *Fn : {Alloc, Save, Restore})
    if (Fn && Fn->use_empty())
      Fn->eraseFromParent();
  return true;
}

} // namespace weft
