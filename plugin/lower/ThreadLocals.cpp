//===- ThreadLocals.cpp - thread_local addresses may change at any call ---===//
//
// A call into a spawning function can return on another thread: if the
// callee's frame is stolen, the stack it runs on parks, and whichever worker
// finishes the callee's slow clone resumes that stack, with the caller's
// frames above it. The same holds for a spawning function itself after a
// steal point. But LLVM treats a thread_local's address as a constant of
// the function (llvm.threadlocal.address is readnone and speculatable), so
// it computes it once and keeps it across calls, and the caller then reads
// and writes the thread it started on, not the one it runs on.
//
// So from the start of the pipeline to its end, every such address is
// computed by an opaque call that only reads inaccessible memory:
//
//   %p = call ptr @llvm.threadlocal.address.p0(ptr @tls)
//     ==>  %p = call ptr @__weft_threadlocal_address(ptr @tls)  ; memory(inaccessiblemem: read)
//
// Any call that may write memory (every unknown call, every runtime call
// around a steal point) ends its value's reuse, while a loop without calls
// may still hoist it. At the end of the pipeline each one becomes the
// intrinsic again, where it stands, and starts a new basic block if a call
// comes before it in its block: instruction selection reads the thread
// pointer (%fs:0) as a load without a chain and merges the reads of one
// block, across calls. That is x86-64, whose thread pointer is a segment
// base that each access reads afresh. Elsewhere (AArch64) it is a register
// read (mrs tpidr_el0) that the machine passes treat as a constant of the
// function: MachineCSE replaces a read after a call with one before it and
// keeps the thread pointer of the thread the function started on in a
// callee-saved register. There, an address that may follow a call is
// computed by a call of a small function of its own, which no pass merges
// or moves across another call:
//
//   %p = call ptr @__weft_threadlocal_address(ptr @tls)   ; after a call
//     ==>  %p = call ptr @__weft_tls.tls()
//   define internal ptr @__weft_tls.tls() noinline {
//     %p = call ptr @llvm.threadlocal.address.p0(ptr @tls)
//     ret ptr %p }
//
// This is done in every function of a
// module built with the plugin, since a function cannot know whether a
// callee in another translation unit spawns. (Code built without the
// plugin keeps the usual assumption; see docs/constructs.md.)
//
//===----------------------------------------------------------------------===//

#include "lower/ThreadLocals.h"
#include "shared/LLVMCompat.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>

using namespace llvm;

namespace weft {
namespace {

// A placeholder (shared/Markers.h): the prefix of the opaque stand-ins for
// llvm.threadlocal.address, turned back into the intrinsic after the split.
constexpr const char *AddressName = "__weft_threadlocal_address";

/// A call that may run code on another thread: anything but an intrinsic.
bool mayMigrate(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  return CB && !isa<IntrinsicInst>(CB) && !CB->isInlineAsm();
}

/// Replaces every call to \p From with a call to \p To (same arguments).
/// Returns the new calls.
SmallVector<CallInst *, 16> redirectCalls(Function *From, FunctionCallee To) {
  SmallVector<CallInst *, 16> Redirected;
  if (!From || From->use_empty())
    return Redirected;
  SmallVector<CallInst *, 16> Calls;
  for (User *U : From->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getCalledFunction() == From)
      Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    SmallVector<Value *, 1> Args(CI->args());
    CallInst *New = CallInst::Create(To, Args, "", CI->getIterator());
    New->takeName(CI);
    New->setDebugLoc(CI->getDebugLoc());
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
    Redirected.push_back(New);
  }
  return Redirected;
}

} // namespace

bool hideThreadLocalAddresses(Module &M) {
  bool Changed = false;
  for (Function &Intrinsic : M.functions()) {
    if (Intrinsic.getIntrinsicID() != Intrinsic::threadlocal_address)
      continue;
    auto *Ty = Intrinsic.getFunctionType();
    std::string Name = (AddressName + Intrinsic.getName().drop_front(
                                          strlen("llvm.threadlocal.address")))
                           .str();
    auto *Opaque =
        cast<Function>(M.getOrInsertFunction(Name, Ty).getCallee());
    Opaque->setDoesNotThrow();
    Opaque->setWillReturn();
    Opaque->setMemoryEffects(MemoryEffects::inaccessibleMemOnly(ModRefInfo::Ref));
    Opaque->addRetAttr(Attribute::NonNull);
    Changed |= !redirectCalls(&Intrinsic, Opaque).empty();
  }
  return Changed;
}

bool isHiddenThreadLocalAddress(const Function &F) {
  return F.getName().starts_with(AddressName);
}

namespace {

/// Whether \p M's target reads the thread pointer by a load that no pass
/// merges across a call (x86's segment base), rather than by a register
/// read that machine passes reuse across calls (ThreadLocals.cpp, top).
bool threadPointerIsALoad(const Module &M) {
  return Triple(M.getTargetTriple()).isX86();
}

/// Whether a call that may migrate can come before \p Address in its
/// function: anything but an address at the top of the entry block.
bool mayFollowMigration(const CallInst &Address) {
  const BasicBlock *Block = Address.getParent();
  return !Block->isEntryBlock() ||
         std::any_of(Block->begin(), Address.getIterator(), mayMigrate);
}

/// The function that computes \p TLS's address where it is called
/// (ThreadLocals.cpp, top), made the first time it is asked for.
Function *addressFunction(GlobalValue &TLS, Function *Intrinsic) {
  Module &M = *TLS.getParent();
  std::string Name = ("__weft_tls." + TLS.getName()).str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  auto *Ty = FunctionType::get(Intrinsic->getReturnType(), false);
  Function *F =
      Function::Create(Ty, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoInline);
  F->setDoesNotThrow();
  F->setWillReturn();
  F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly(ModRefInfo::Ref));
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "", F));
  B.CreateRet(B.CreateCall(Intrinsic, {&TLS}));
  return F;
}

} // namespace

bool restoreThreadLocalAddresses(Module &M) {
  bool Changed = false;
  bool SplitBlocks = threadPointerIsALoad(M);
  SmallVector<Function *, 2> Opaques;
  for (Function &Fn : M.functions())
    if (Fn.getName().starts_with(AddressName))
      Opaques.push_back(&Fn);
  for (Function *Opaque : Opaques) {
    Type *Ptr = Opaque->getReturnType();
    Function *Intrinsic = compat::intrinsicDeclaration(
        &M, Intrinsic::threadlocal_address, {Ptr});
    for (CallInst *Address : redirectCalls(Opaque, Intrinsic)) {
      Changed = true;
      if (SplitBlocks) {
        BasicBlock *Block = Address->getParent();
        if (std::any_of(Block->begin(), Address->getIterator(), mayMigrate))
          SplitBlock(Block, Address);
        continue;
      }
      auto *TLS = dyn_cast<GlobalValue>(
          Address->getArgOperand(0)->stripPointerCasts());
      if (!TLS || !mayFollowMigration(*Address))
        continue;
      CallInst *Call = CallInst::Create(addressFunction(*TLS, Intrinsic), "",
                                        Address->getIterator());
      Call->takeName(Address);
      Call->setDebugLoc(Address->getDebugLoc());
      Address->replaceAllUsesWith(Call);
      Address->eraseFromParent();
    }
    Opaque->eraseFromParent();
  }
  return Changed;
}

} // namespace weft
