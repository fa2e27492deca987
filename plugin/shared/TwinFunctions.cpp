//===- TwinFunctions.cpp - A function that does what its callee does ------===//

#include "shared/TwinFunctions.h"
#include "shared/Markers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/StructuralHash.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/FunctionComparator.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/IR/Dominators.h"

using namespace llvm;

namespace weft {
namespace {

/// In \p F (a copy), each invoke of a function that cannot unwind becomes
/// a call, and the blocks no longer reached go, and with them the uses of
/// the exception's slots, which Clang allocated for those landing pads.
void treatNounwindInvokesAsCalls(Function &F) {
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : F)
    if (auto *Invoke = dyn_cast<InvokeInst>(BB.getTerminator()))
      if (Invoke->doesNotThrow())
        Invokes.push_back(Invoke);
  for (InvokeInst *Invoke : Invokes)
    changeToCall(Invoke);
  if (Invokes.empty() || !removeUnreachableBlocks(F))
    return;
  // What is left of the pads' slots, and of Clang's cleanup destination,
  // is stored to and never read: it goes.
  for (Instruction &I : make_early_inc_range(F.getEntryBlock())) {
    auto *Slot = dyn_cast<AllocaInst>(&I);
    if (!Slot || !all_of(Slot->users(), [Slot](User *U) {
          auto *Store = dyn_cast<StoreInst>(U);
          return (Store && Store->getPointerOperand() == Slot &&
                  Store->getValueOperand() != Slot) ||
                 isa<LifetimeIntrinsic>(U);
        }))
      continue;
    for (User *U : make_early_inc_range(Slot->users()))
      cast<Instruction>(U)->eraseFromParent();
    Slot->eraseFromParent();
  }
}

/// \p F (a copy, as Clang emitted it) with its scalars in registers and
/// its straight chains of blocks one block: where Clang placed a slot's
/// lifetime end, and how many blocks a cleanup took, no longer tell two
/// instances apart.
void canonicalize(Function &F) {
  DominatorTree DT(F);
  SmallVector<AllocaInst *, 16> Promotable;
  for (Instruction &I : F.getEntryBlock())
    if (auto *Slot = dyn_cast<AllocaInst>(&I); Slot && isAllocaPromotable(Slot))
      Promotable.push_back(Slot);
  if (!Promotable.empty())
    PromoteMemToReg(Promotable, DT);
  for (BasicBlock &BB : make_early_inc_range(F))
    MergeBlockIntoPredecessor(&BB);
}

/// Whether a call can pass on all of \p F's arguments as they came: not
/// with variadic ones, nor with those a call's own stack frame carries.
bool canForward(const Function &F) {
  if (F.isVarArg())
    return false;
  for (const Argument &Arg : F.args())
    if (Arg.hasInAllocaAttr() || Arg.hasPreallocatedAttr() ||
        Arg.hasSwiftErrorAttr())
      return false;
  return true;
}

} // namespace

const Constant *personalityOf(const Function &F) {
  if (!F.hasPersonalityFn() ||
      none_of(F, [](const BasicBlock &BB) { return BB.isEHPad(); }))
    return nullptr;
  return F.getPersonalityFn();
}

bool isTwinOf(Function &F, Function &Twin, GlobalNumberState &Numbers,
              bool NounwindInvokesAsCalls) {
  if (F.getFunctionType() != Twin.getFunctionType() || !canForward(F) ||
      Twin.isInterposable())
    return false;
  if (!NounwindInvokesAsCalls &&
      (personalityOf(F) != personalityOf(Twin) ||
       StructuralHash(F) != StructuralHash(Twin)))
    return false;
  // FunctionComparator takes a function's reference to itself for the
  // other's reference to itself, so F is compared with a copy of Twin,
  // whose calls still name Twin.
  ValueToValueMapTy TwinMap, FMap;
  Function *TwinCopy = CloneFunction(&Twin, TwinMap);
  Function *FCopy = nullptr;
  Function *Left = &F;
  if (NounwindInvokesAsCalls) {
    FCopy = CloneFunction(&F, FMap);
    for (Function *Copy : {FCopy, TwinCopy}) {
      treatNounwindInvokesAsCalls(*Copy);
      canonicalize(*Copy);
    }
    Left = FCopy;
  }
  bool Same = personalityOf(*Left) == personalityOf(*TwinCopy) &&
              FunctionComparator(Left, TwinCopy, &Numbers).compare() == 0;
  TwinCopy->eraseFromParent();
  if (FCopy)
    FCopy->eraseFromParent();
  return Same;
}

/// \p F's body becomes a tail call of \p Twin with F's own arguments.
static void forwardToTwin(Function &F, Function &Twin) {
  // deleteBody makes F an external declaration without metadata: its
  // linkage and its metadata (the debug info's subprogram, KCFI's and
  // CFI's type ids, the profile's entry count) come back.
  GlobalValue::LinkageTypes Linkage = F.getLinkage();
  SmallVector<std::pair<unsigned, MDNode *>, 4> Metadata;
  F.getAllMetadata(Metadata);
  F.deleteBody();
  F.setLinkage(Linkage);
  for (auto [Kind, Node] : Metadata)
    F.addMetadata(Kind, *Node);
  F.removeFnAttr(SpawningFunctionAttr);
  BasicBlock *Entry = BasicBlock::Create(F.getContext(), "entry", &F);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 8> Args(make_pointer_range(F.args()));
  CallInst *Call = B.CreateCall(&Twin, Args);
  Call->setCallingConv(Twin.getCallingConv());
  // The parameters' ABI attributes (zeroext on a bool) hold at the call.
  Call->setAttributes(Twin.getAttributes().removeFnAttributes(F.getContext()));
  Call->setTailCall();
  if (DISubprogram *SP = F.getSubprogram())
    Call->setDebugLoc(DILocation::get(F.getContext(), SP->getLine(), 0, SP));
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
}

unsigned forwardToTwins(ArrayRef<std::pair<Function *, Function *>> Twins) {
  // Each forwards only to a twin that still has its body: the forwarding
  // then never closes a cycle (A to B and B to A, identical, would call
  // each other for ever).
  SmallPtrSet<Function *, 8> Forwarding;
  for (auto [F, Twin] : Twins) {
    if (Forwarding.contains(Twin))
      continue;
    forwardToTwin(*F, *Twin);
    Forwarding.insert(F);
  }
  return Forwarding.size();
}

} // namespace weft
