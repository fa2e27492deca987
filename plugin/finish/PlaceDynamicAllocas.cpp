//===- PlaceDynamicAllocas.cpp - Dynamic allocas back, by clone -----------===//
//
// Before coro-split the lowering hides each dynamic alloca, stack save and
// stack restore of a spawning function, and each spawned statement's
// temporary, behind a marker call (lower/DynamicAllocas.cpp says why).
// Only after the split is it known which clone runs each one, so here,
// among the post-split steps, each marker is put back:
//
//   __weft_dynamic_alloca(arena, n, k)  ramp: alloca i8, i64 n, align k
//                          slow clone: __weft_arena_alloc(arena, n, k)
//   __weft_stack_save()    ramp: llvm.stacksave; slow clone: null
//   __weft_stack_restore(s)  ramp: llvm.stackrestore; slow clone: nothing
//   __weft_statement_alloca(n, k, id)  in either: one static alloca of n
//                          bytes per id and function
//   __weft_statement_lifetime_start(p), _end(p)  in either: the lifetime
//                          intrinsics on that alloca
//
// The ramp is the clone that allocates the coroutine frame; a function with
// dynamic allocas or statement temporaries is noinline, so it is still
// the function that holds the markers.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace weft {
namespace {

/// The statement temporaries' lifetime marker calls named \p Name, now on
/// their placed allocas, as the lifetime intrinsics they stand for.
void restoreLifetimeMarkers(Module &M, StringRef Name) {
  Function *Marker = M.getFunction(Name);
  if (!Marker)
    return;
  bool IsStart = Name == StatementLifetimeStartName;
  const DataLayout &DL = M.getDataLayout();
  while (!Marker->use_empty()) {
    auto *CI = cast<CallInst>(Marker->user_back());
    // Each use of a temporary had a marker call of its own, which its
    // alloca replaced; should a pass have merged addresses (a phi), the
    // marker is dropped, which only gives the stack coloring less to go on.
    if (auto *AI =
            dyn_cast<AllocaInst>(CI->getArgOperand(0)->stripPointerCasts())) {
      IRBuilder<> B(CI);
      uint64_t Bytes = AI->getAllocationSize(DL)->getFixedValue();
      CallInst *Lifetime = IsStart ? compat::lifetimeStart(B, AI, Bytes)
                                   : compat::lifetimeEnd(B, AI, Bytes);
      Lifetime->setDebugLoc(CI->getDebugLoc());
    }
    CI->eraseFromParent();
  }
  Marker->eraseFromParent();
}

/// Each statement temporary becomes a static alloca of the function that
/// holds its markers after the split: one per id.
bool placeStatementTemporaries(Module &M) {
  Function *Marker = M.getFunction(StatementAllocaName);
  if (!Marker)
    return false;
  DenseMap<std::pair<Function *, uint64_t>, AllocaInst *> Placed;
  while (!Marker->use_empty()) {
    auto *CI = cast<CallInst>(Marker->user_back());
    Function *Holder = CI->getFunction();
    uint64_t Id = cast<ConstantInt>(CI->getArgOperand(2))->getZExtValue();
    AllocaInst *&AI = Placed[{Holder, Id}];
    if (!AI) {
      BasicBlock &Entry = Holder->getEntryBlock();
      IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
      auto Bytes = cast<ConstantInt>(CI->getArgOperand(0))->getZExtValue();
      AI = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), Bytes));
      AI->setAlignment(
          Align(cast<ConstantInt>(CI->getArgOperand(1))->getZExtValue()));
      AI->setMetadata(StatementTemporaryMD, MDNode::get(M.getContext(), {}));
    }
    if (CI->hasName())
      AI->takeName(CI);
    CI->replaceAllUsesWith(AI);
    CI->eraseFromParent();
  }
  Marker->eraseFromParent();
  restoreLifetimeMarkers(M, StatementLifetimeStartName);
  restoreLifetimeMarkers(M, StatementLifetimeEndName);
  return true;
}

} // namespace

bool placeDynamicAllocas(Module &M,
                         const SmallPtrSetImpl<Function *> &FastClones) {
  Function *Alloc = M.getFunction(DynamicAllocaName);
  Function *Save = M.getFunction(StackSaveName);
  Function *Restore = M.getFunction(StackRestoreName);
  bool Placed = placeStatementTemporaries(M);
  if (!Alloc && !Save && !Restore)
    return Placed;
  FunctionCallee ArenaAlloc = getRuntimeFunction(M, RuntimeFn::ArenaAlloc);

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
