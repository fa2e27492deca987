//===- RaceAllocators.cpp - Library allocators as allocators (race mode) --===//
//
// A pool allocator hands the block one strand gave back to the next strand
// that asks, logically parallel or not, and keeps its free lists in memory
// that every strand updates (per-worker lists found through a
// thread_local, lock-free stacks). The race detector would report both as
// races, and neither is one: they are what glibc's malloc does, which the
// detector knows for an allocator (runtime/analysis/race/interpose.cpp).
// So, in race mode, a function that the front end marked as an allocator's
// entry point (frontend/KnownAllocators.cpp, through the annotation of
// shared/AllocatorAnnotation.h) gets the same model, in its own body:
//
//   - checking is off for the duration of the call: the allocator's
//     bookkeeping, in this function and everything it calls, is neither
//     checked nor recorded (<cilk/cilksan.h>'s switch, which nests);
//   - a block handed out is new: its history is forgotten
//     (__weft_race_alloc, on each return);
//   - a block given back is a free: checked against logically parallel
//     accesses, with checking still on, then forgotten (__weft_race_free,
//     at entry).
//
// For block_allocator::alloc() and free(p), whose size is the allocator's
// field block_size (at byte 24, say):
//
//   define ptr @alloc(ptr %this) {          define void @free(ptr %this, ptr %p) {
//     <body>                                  <body>
//     ret ptr %r                              ret void
//   }                                       }
//     ==>                                     ==>
//   define ptr @alloc(ptr %this) {          define void @free(ptr %this, ptr %p) {
//     call @__cilksan_disable_checking()      %f = gep i8, ptr %this, i64 24
//     <body>                                  %n = load i64, ptr %f, !nosanitize
//     %f = gep i8, ptr %this, i64 24          call @__weft_race_free(ptr %p, i64 %n)
//     %n = load i64, ptr %f, !nosanitize      call @__cilksan_disable_checking()
//     call @__cilksan_enable_checking()       <body>
//     call @__weft_race_alloc(ptr %r, i64 %n) call @__cilksan_enable_checking()
//     ret ptr %r                              ret void
//   }                                       }
//
// An exception that leaves the function turns checking back on too: each
// call that may throw gets a cleanup that does, then resumes (LLVM's
// EscapeEnumerator, as ThreadSanitizer's pass uses for its function exits).
//
// It runs at the start of the pipeline, before the inliner copies the
// bodies into their callers (at -O1 a sequence's allocation is one
// function with the pool's code in it), and before ThreadSanitizer's pass,
// whose instrumentation of the body then runs with checking off. The size
// loads carry !nosanitize: the allocator's fields are bookkeeping too (a
// function-local static allocator's constructor writes them). The
// annotations are removed, so that they keep no function alive.
//
//===----------------------------------------------------------------------===//

#include "analysis/RaceAllocators.h"
#include "shared/AllocatorAnnotation.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/EscapeEnumerator.h"

#include <optional>
#include <utility>

using namespace llvm;

namespace weft {
namespace {

using MarkedEntry = std::pair<Function *, AllocatorEntry>;

/// The allocator entry an element of @llvm.global.annotations marks, if it
/// is one: {function, annotation string, file, line, arguments}.
std::optional<MarkedEntry> markedEntry(const Constant &Element) {
  auto *Fields = dyn_cast<ConstantStruct>(&Element);
  if (!Fields || Fields->getNumOperands() < 2)
    return std::nullopt;
  auto *F = dyn_cast<Function>(Fields->getOperand(0)->stripPointerCasts());
  auto *Text =
      dyn_cast<GlobalVariable>(Fields->getOperand(1)->stripPointerCasts());
  if (!F || !Text || !Text->hasInitializer())
    return std::nullopt;
  auto *Chars = dyn_cast<ConstantDataSequential>(Text->getInitializer());
  if (!Chars || !Chars->isCString())
    return std::nullopt;
  std::optional<AllocatorEntry> Entry = AllocatorEntry::decode(Chars->getAsCString());
  if (!Entry)
    return std::nullopt;
  return MarkedEntry{F, *Entry};
}

/// Erases \p C if it is a private global nothing uses any more (an
/// annotation's strings).
void eraseIfDead(Constant *C) {
  auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts());
  if (GV && GV->hasPrivateLinkage() && GV->use_empty())
    GV->eraseFromParent();
}

/// The allocator entries marked in \p M, whose annotations are taken out
/// of @llvm.global.annotations (the others stay).
SmallVector<MarkedEntry, 4> takeMarkedEntries(Module &M) {
  SmallVector<MarkedEntry, 4> Entries;
  GlobalVariable *Annotations = M.getNamedGlobal("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return Entries;
  auto *List = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!List)
    return Entries;
  SmallVector<Constant *, 8> Kept, Dropped;
  for (Use &Element : List->operands()) {
    auto *C = cast<Constant>(Element.get());
    if (std::optional<MarkedEntry> Entry = markedEntry(*C)) {
      Entries.push_back(*Entry);
      Dropped.push_back(C);
    } else
      Kept.push_back(C);
  }
  if (Entries.empty())
    return Entries;
  auto *Type = ArrayType::get(List->getType()->getElementType(), Kept.size());
  if (Kept.empty()) {
    Annotations->eraseFromParent();
  } else {
    auto *Rest = new GlobalVariable(
        M, Type, Annotations->isConstant(), Annotations->getLinkage(),
        ConstantArray::get(Type, Kept), "", Annotations,
        Annotations->getThreadLocalMode());
    Rest->setSection(Annotations->getSection());
    Rest->takeName(Annotations);
    Annotations->eraseFromParent();
  }
  for (Constant *C : Dropped) {
    SmallVector<Constant *, 4> Strings;
    for (unsigned I = 1; I < C->getNumOperands(); ++I)
      Strings.push_back(cast<Constant>(C->getOperand(I)));
    C->destroyConstant();
    for (Constant *S : Strings)
      eraseIfDead(S);
  }
  return Entries;
}

/// Whether \p F has the arguments and result \p E speaks of.
bool fits(const Function &F, const AllocatorEntry &E) {
  auto IsArg = [&](unsigned I, bool Pointer) {
    if (I >= F.arg_size())
      return false;
    Type *T = F.getArg(I)->getType();
    return Pointer ? T->isPointerTy() : T->isIntegerTy();
  };
  if (E.Role == AllocatorEntry::Alloc && !F.getReturnType()->isPointerTy())
    return false;
  if (E.Role == AllocatorEntry::Free && !IsArg(E.PtrArg, true))
    return false;
  return IsArg(E.Size.Arg, /*Pointer=*/E.Size.FieldOffset.has_value());
}

/// The block's size, as a size_t, read where \p B is. A field is read with
/// !nosanitize: the allocator's own state is not the program's.
Value *blockSize(IRBuilder<> &B, Function &F, const BlockSize &Size) {
  Type *SizeT = F.getParent()->getDataLayout().getIntPtrType(F.getContext());
  Value *Arg = F.getArg(Size.Arg);
  if (!Size.FieldOffset)
    return B.CreateZExtOrTrunc(Arg, SizeT);
  Value *Field = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Arg,
                                              *Size.FieldOffset);
  LoadInst *Load = B.CreateLoad(SizeT, Field, "weft.block.size");
  Load->setMetadata(LLVMContext::MD_nosanitize,
                    MDNode::get(F.getContext(), {}));
  return Load;
}

/// <cilk/cilksan.h>'s switch, which the race runtime defines; never throws.
FunctionCallee checkingSwitch(Module &M, StringRef Name) {
  FunctionCallee Callee =
      M.getOrInsertFunction(Name, Type::getVoidTy(M.getContext()));
  if (auto *Decl = dyn_cast<Function>(Callee.getCallee()))
    Decl->setDoesNotThrow();
  return Callee;
}

/// Where the model's calls are reported: the function's own line, for a
/// place that has none (the free at entry, a cleanup block).
DebugLoc functionLine(const Function &F) {
  DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return DebugLoc();
  return DILocation::get(F.getContext(), SP->getScopeLine(), 0, SP);
}

/// The first place in \p F's entry block after its allocas.
BasicBlock::iterator afterAllocas(Function &F) {
  BasicBlock::iterator It = F.getEntryBlock().getFirstInsertionPt();
  while (isa<AllocaInst>(*It))
    ++It;
  return It;
}

/// A function that may throw gets a personality for the cleanups that turn
/// checking back on: another function's in the module, which is the
/// language's (EscapeEnumerator would otherwise choose C's).
void lendPersonality(Function &F) {
  if (F.hasPersonalityFn() || F.doesNotThrow())
    return;
  for (const Function &Other : *F.getParent())
    if (Other.hasPersonalityFn()) {
      F.setPersonalityFn(Other.getPersonalityFn());
      return;
    }
}

/// Wraps \p F's body in the allocator model \p E describes (file comment).
void model(Function &F, const AllocatorEntry &E) {
  Module &M = *F.getParent();
  FunctionCallee Disable = checkingSwitch(M, "__cilksan_disable_checking");
  FunctionCallee Enable = checkingSwitch(M, "__cilksan_enable_checking");
  FunctionCallee Announce = getRuntimeFunction(
      M, E.Role == AllocatorEntry::Alloc ? RuntimeFn::RaceAlloc
                                         : RuntimeFn::RaceFree);
  DebugLoc Line = functionLine(F);

  IRBuilder<> Entry(&F.getEntryBlock(), afterAllocas(F));
  Entry.SetCurrentDebugLocation(Line);
  if (E.Role == AllocatorEntry::Free)
    Entry.CreateCall(Announce,
                     {F.getArg(E.PtrArg), blockSize(Entry, F, E.Size)});
  Entry.CreateCall(Disable);

  lendPersonality(F);
  EscapeEnumerator Exits(F, "weft.race.allocator", !F.doesNotThrow());
  while (IRBuilder<> *Exit = Exits.Next()) {
    if (!Exit->getCurrentDebugLocation())
      Exit->SetCurrentDebugLocation(Line);
    auto *Return = dyn_cast<ReturnInst>(&*Exit->GetInsertPoint());
    if (E.Role == AllocatorEntry::Alloc && Return) {
      Value *Size = blockSize(*Exit, F, E.Size);
      Exit->CreateCall(Enable);
      Exit->CreateCall(Announce, {Return->getReturnValue(), Size});
    } else {
      Exit->CreateCall(Enable);
    }
  }
}

} // namespace

PreservedAnalyses RaceAllocatorsPass::run(Module &M,
                                          ModuleAnalysisManager &) {
  SmallVector<MarkedEntry, 4> Entries = takeMarkedEntries(M);
  if (Entries.empty())
    return PreservedAnalyses::all();
  for (auto &[F, E] : Entries)
    if (!F->isDeclaration() && fits(*F, E))
      model(*F, E);
  return PreservedAnalyses::none();
}

} // namespace weft
