//===- ChunkCallees.cpp - Inline what only a parallel loop's chunk calls --===//
//
// A cilk_for's body becomes a chunk function at the start of the pipeline
// (lower/parallel_for/ParallelFor.cpp), before the inliner has run. The
// inliner visits each function once, callees first, and the chunk is a
// function of its own, named only by the splitter call that takes its
// address: it is weighed before its parent, while the loop body's callees
// still have all their call sites. A generic parallel_for, say, calls its
// functor f from the cilk_for and from a serial loop for small ranges; both
// calls are there when the chunk is visited, f is too big to inline twice,
// and it stays a call. Once the parent has inlined parallel_for with the
// grain a constant, the serial loop is dead and the chunk's call is f's
// only one, but nothing visits the chunk again. The serial elision inlines
// f into its one loop, and then optimises f's own loops with its caller's
// facts: in one kd-tree build, f's inner loop kept two bounds checks in the
// chunk that the elision turned into one check before the loop (15% of
// the program's instructions).
//
// So after the inliner, each chunk inlines every callee that it alone calls
// and that LLVM would inline as a last call (internal, viable, compatible),
// repeatedly as inlining exposes more, and the chunks that changed go
// through the function simplification pipeline again:
//
//   define internal void @f.weft.pfor(ptr %ctx, i64 %lo, i64 %hi) {
//   loop:
//     call void @"f::operator()"(ptr %fn, i64 %i)   ; its one call site
//   ...
//   ; after: @"f::operator()" inlined into the loop and deleted; the chunk
//   ; simplified again, its loops with the body's in view.
//
// A callee's other call site may sit in a clone that nothing can resume
// any more: a spawning function inlined into its caller with its spawning
// path folded away leaves its frame's store of the slow clone's address,
// and the slow clone calls the spawning function, which calls the callee.
// So the frames' dead stores go first (sinkResumePointers, which the end
// of the pipeline would run anyway), then the dead clones (GlobalDCE).
//
// Code size does not grow: each callee inlined had no other caller and
// goes. Chunks that spawn are coroutines split by now and are left alone,
// as are the functions the lowering made (spawn helpers, clones).
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/Markers.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "weft-chunk-callees"

using namespace llvm;

STATISTIC(NumChunkCalleesInlined, "Sole callees inlined into loop chunks");

namespace weft {
namespace {

/// The function \p CB calls if \p CB is its only use, it is defined here
/// and no one else can call it, and LLVM could inline it into \p Chunk.
Function *soleCallee(CallBase &CB, Function &Chunk,
                     FunctionAnalysisManager &FAM) {
  Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee == &Chunk || Callee->isDeclaration() ||
      !Callee->hasLocalLinkage() || !Callee->hasOneUse() ||
      CB.isNoInline() || Callee->hasFnAttribute(Attribute::NoInline) ||
      Callee->hasOptNone() || Callee->isPresplitCoroutine())
    return nullptr;
  // What the lowering made keeps its shape for the steps after this one.
  if (Callee->hasFnAttribute(OutlinedFunctionAttr) ||
      Callee->hasFnAttribute(SpawningFunctionAttr))
    return nullptr;
  if (CB.getFunctionType() != Callee->getFunctionType())
    return nullptr;
  if (!isInlineViable(*Callee).isSuccess() ||
      !AttributeFuncs::areInlineCompatible(Chunk, *Callee) ||
      !FAM.getResult<TargetIRAnalysis>(Chunk).areInlineCompatible(&Chunk,
                                                                   Callee))
    return nullptr;
  return Callee;
}

/// Inlines \p Chunk's sole callees, and theirs in turn; returns true if it
/// inlined any.
bool inlineSoleCallees(Function &Chunk, FunctionAnalysisManager &FAM) {
  SmallVector<CallBase *, 16> Worklist;
  for (Instruction &I : instructions(Chunk))
    if (auto *CB = dyn_cast<CallBase>(&I))
      Worklist.push_back(CB);
  bool Changed = false;
  while (!Worklist.empty()) {
    CallBase *CB = Worklist.pop_back_val();
    Function *Callee = soleCallee(*CB, Chunk, FAM);
    if (!Callee)
      continue;
    InlineFunctionInfo IFI;
    if (!InlineFunction(*CB, IFI).isSuccess())
      continue;
    ++NumChunkCalleesInlined;
    Changed = true;
    for (CallBase *Inlined : IFI.InlinedCallSites)
      Worklist.push_back(Inlined);
    if (Callee->use_empty()) {
      FAM.clear(*Callee, Callee->getName());
      Callee->eraseFromParent();
    }
  }
  return Changed;
}

} // namespace

PreservedAnalyses InlineChunkCalleesPass::run(Module &M,
                                              ModuleAnalysisManager &MAM) {
  // Nothing to do, and no clean-up to pay for, in a module without loops.
  if (none_of(M, [](const Function &F) { return isPlainChunk(F); }))
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  // The callees' other call sites in clones that nothing can resume any
  // more do not count: such a clone is named only by its fast clone's
  // frame, where the spawning path folded away (sinkResumePointers), and
  // then by nothing but itself (GlobalDCE).
  bool Changed = sinkResumePointers(M);
  if (Changed)
    MAM.invalidate(M, PreservedAnalyses::none());
  PreservedAnalyses Dead = GlobalDCEPass().run(M, MAM);
  Changed |= !Dead.areAllPreserved();
  MAM.invalidate(M, Dead);
  // After GlobalDCE, which may have deleted a chunk of a dead parent.
  SmallVector<Function *, 8> Chunks;
  for (Function &F : M)
    if (isPlainChunk(F))
      Chunks.push_back(&F);
  for (Function *Chunk : Chunks) {
    if (!inlineSoleCallees(*Chunk, FAM))
      continue;
    Changed = true;
    simplifyChangedChunk(*Chunk, Simplify, FAM);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
