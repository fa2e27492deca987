//===- Finish.cpp - The post-split steps, in order and one by one ---------===//
//
// What must wait for coro-split runs at the end of the pipeline, in this
// order (FinishPass, "weft-finish"):
//
//   weft-stolen-checks          false in fast clones (StolenChecks.cpp;
//                               also each clone's own, early: see there)
//   (with weft-stolen-checks)   each frame's resume pointer stored just
//                               before its pushes, or nowhere
//                               (SinkFrameInit.cpp)
//   weft-merge-clones           identical slow clones, loop bodies and
//                               spawn helpers kept once, and a spawning
//                               function that is its callee's twin made a
//                               call of it (MergeClones.cpp); not in race
//                               mode
//   (with weft-spawn-tail-calls)  a pedigree build's sync counts after a
//                               recursive call set aside as markers
//                               (SpawnTailCalls.cpp)
//   weft-inline-fast-path       the runtime's push and pop (FastPath.cpp)
//   weft-frame-to-stack         frames as allocas, their initialisation
//                               sunk (FrameToStack.cpp, SinkFrameInit.cpp)
//   weft-place-dynamic-allocas  dynamic allocas back, by clone
//                               (PlaceDynamicAllocas.cpp)
//   weft-clean-up-fast-clones   a clean-up of what changed (below)
//   weft-spawn-tail-calls       a fast clone's last recursive call made a
//                               loop, where its frame stays private (found
//                               before the fast path is inlined), and the
//                               clean-up again (SpawnTailCalls.cpp)
//   weft-rethrow-exits          rethrows routed to the one return, the
//                               leaf's path given its own (RethrowExits.cpp)
//   (with weft-spawn-tail-calls)  the leaf's return of its own and the
//                               loop's values kept in the frame, last, so
//                               that no pass moves them; then the pedigree
//                               counts that the loops made or left inlined
//   weft-restore-thread-locals  the thread-local addresses, last
//                               (lower/ThreadLocals.cpp)
//   (with weft-merge-clones)    identical clones kept once again, as the
//                               steps above left them
//   weft-race-locations         race mode only: a line for each access
//                               that lost its own (RaceLocations.cpp)
//   weft-race-thread-locals     race mode only: thread-locals unchecked
//                               (RaceThreadLocals.cpp)
//   weft-race-frame             race mode only: the frames' own accesses
//                               hidden from ThreadSanitizer, which runs
//                               after this pass (RaceFrame.cpp), and
//                               the ends of stack slots' lives told to
//                               the detector (RaceDeadSlots.cpp)
//   weft-race-vector-accesses   race mode only: gathers, scatters, masked
//                               loads and stores checked lane by lane
//                               (RaceVectorAccesses.cpp)
//   weft-race-ranges            race mode only, last: a straight run's
//                               accesses to one range checked by one call
//                               (RaceRanges.cpp)
//
// The clean-up, the rethrows and the merge run with weft-finish<clean-up>
// only, as at any -O but -O0. In the pipeline the steps pass on what they
// learn: which functions hold a frame (the fast clones) and which the fast
// path or a folded stolen check changed. Each step is also a pass of its
// own, so that an IR test can run it alone on a module in the state just
// before it. A step run alone finds the fast clones in the IR
// (findFastClones), which only works where value names are kept (opt), hence
// the set passed along in the pipeline; and the clean-up alone cleans up the
// fast clones only, not the slow clones that the fast path was inlined into.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "lower/ThreadLocals.h"
#include "shared/Markers.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/DeadStoreElimination.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;

namespace weft {
namespace {

PreservedAnalyses preserved(bool Changed) {
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

/// Whether \p F holds the alloca that placeFramesOnStack made of a frame
/// allocation (in its entry block, named FrameSlotName or a numbered copy).
bool holdsFrameSlot(Function &F) {
  if (F.isDeclaration())
    return false;
  for (Instruction &I : F.getEntryBlock())
    if (isa<AllocaInst>(I) && I.getName().starts_with(FrameSlotName))
      return true;
  return false;
}

} // namespace

SmallPtrSet<Function *, 8> findFastClones(Module &M) {
  SmallPtrSet<Function *, 8> FastClones;
  if (Function *Alloc = M.getFunction(FrameAllocName))
    for (User *U : Alloc->users())
      if (auto *CI = dyn_cast<CallInst>(U);
          CI && CI->getCalledFunction() == Alloc)
        FastClones.insert(CI->getFunction());
  for (Function &F : M)
    if (holdsFrameSlot(F))
      FastClones.insert(&F);
  return FastClones;
}

/// Nothing optimises after the end of the pipeline, so the functions that
/// got the fast path inlined, their stolen checks folded and their frame
/// initialisation moved get a short clean-up of their own: forwarding of
/// the frame's stores to its loads, the dead stores on the way out (which
/// keep shrink-wrapping from taking the prologue off a leaf's path), and
/// the branches and blocks left behind.
bool cleanUpFastClones(const SmallPtrSetImpl<Function *> &Functions,
                       ModuleAnalysisManager &MAM, Module &M) {
  FunctionPassManager FPM;
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(DSEPass());
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function *F : Functions)
    if (!F->isDeclaration() && !F->hasOptNone())
      FAM.invalidate(*F, FPM.run(*F, FAM));
  return !Functions.empty();
}

/// loopSpawnTailCalls on each of \p Candidates, and the clean-up again on
/// those it changed.
static SmallPtrSet<Function *, 8>
loopTailCalls(const SmallPtrSetImpl<Function *> &Candidates,
              ModuleAnalysisManager &MAM, Module &M) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallPtrSet<Function *, 8> Looped;
  for (Function *F : Candidates)
    if (loopSpawnTailCalls(*F, FAM))
      Looped.insert(F);
  if (!Looped.empty())
    cleanUpFastClones(Looped, MAM, M);
  return Looped;
}

PreservedAnalyses FinishPass::run(Module &M, ModuleAnalysisManager &MAM) {
  SmallPtrSet<Function *, 16> Touched;
  bool Changed = lowerStolenChecks(M, Touched);
  Changed |= sinkResumePointers(M);
  // Before the fast path makes every fast clone long, and before the steps
  // below make a self-recursive one differ from its twin. Not in race
  // mode, whose reports name each access's function.
  if (CleanUp && !Race) {
    bool Merged = mergeIdenticalClones(M, &Touched);
    Merged |= mergeTwinSpawningFunctions(M);
    // A forwarding twin's blocks are gone: no analysis of it may stay.
    if (Merged)
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager().clear();
    Changed |= Merged;
  }
  // With the fast clones' slow-path branches gone, and before the fast path
  // hands the frame to the deque's ring, where the runtime's calls are
  // still calls.
  SmallPtrSet<Function *, 8> TailLoops;
  if (CleanUp)
    TailLoops = findPrivateFrameRecursion(M);
  for (Function *F : TailLoops)
    Changed |= setAsideTailSyncs(*F);
  Changed |= inlineFastPath(M, Touched);
  SmallPtrSet<Function *, 8> FastClones; // whoever allocates a frame
  Changed |= placeFramesOnStack(M, FastClones);
  Changed |= placeDynamicAllocas(M, FastClones);
  if (CleanUp) {
    Touched.insert(FastClones.begin(), FastClones.end());
    Changed |= cleanUpFastClones(Touched, MAM, M);
    // After the clean-up, which forwards the frame's other slots.
    SmallPtrSet<Function *, 8> Looped = loopTailCalls(TailLoops, MAM, M);
    Changed |= !Looped.empty();
    // After the clean-up, which would see the new edges as dead.
    for (Function *F : FastClones)
      Changed |= routeRethrowsToReturn(*F);
    // After the rethrows found the one return.
    for (Function *F : Looped)
      finishSpawnTailLoop(*F);
    // The pedigree counts that the loops made or left, inlined as any.
    Changed |= restoreTailSyncsLeft(M);
    Changed |= inlineFastPath(M, Touched, RuntimeFn::PedigreeSyncs);
  }
  // Last: from here on, thread-local addresses are the readnone intrinsic
  // again, which no pass may see.
  Changed |= restoreThreadLocalAddresses(M);
  // On the clones as they will be compiled. Not in race mode, whose
  // reports name each access's function.
  if (CleanUp && !Race)
    Changed |= mergeIdenticalClones(M);
  // After every step that creates or combines frame accesses.
  if (Race) {
    Changed |= nameAccessLines(M);
    Changed |= hideThreadLocalsFromSanitizer(M);
    Changed |= hideFramesFromSanitizer(M);
    Changed |= forgetDeadSlotsInRace(M);
    Changed |= checkVectorAccessesByLane(M);
    // After the dead slots' and the lanes' calls, which end runs.
    Changed |= checkAccessRunsAsRanges(M);
  }
  return preserved(Changed);
}

PreservedAnalyses RaceRangesPass::run(Module &M, ModuleAnalysisManager &) {
  return preserved(checkAccessRunsAsRanges(M));
}

PreservedAnalyses RaceFramePass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = hideFramesFromSanitizer(M);
  Changed |= forgetDeadSlotsInRace(M);
  return preserved(Changed);
}

PreservedAnalyses SpawnTailCallsPass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  SmallPtrSet<Function *, 8> Candidates;
  for (Function *F : findFastClones(M))
    if (AllocaInst *Frame = findFastCloneFrame(*F);
        Frame && hasPrivateFrame(*Frame) && callsItselfDirectly(*F))
      Candidates.insert(F);
  SmallPtrSet<Function *, 8> Looped = loopTailCalls(Candidates, MAM, M);
  for (Function *F : Looped)
    finishSpawnTailLoop(*F);
  bool Restored = restoreTailSyncsLeft(M);
  return preserved(!Looped.empty() || Restored);
}

PreservedAnalyses InlineFastPathPass::run(Module &M, ModuleAnalysisManager &) {
  SmallPtrSet<Function *, 16> Touched;
  return preserved(inlineFastPath(M, Touched));
}

PreservedAnalyses StolenChecksPass::run(Module &M, ModuleAnalysisManager &) {
  SmallPtrSet<Function *, 16> Touched;
  bool Changed = lowerStolenChecks(M, Touched);
  return preserved(sinkResumePointers(M) || Changed);
}

PreservedAnalyses FrameToStackPass::run(Module &M, ModuleAnalysisManager &) {
  SmallPtrSet<Function *, 8> FastClones;
  return preserved(placeFramesOnStack(M, FastClones));
}

PreservedAnalyses PlaceDynamicAllocasPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  return preserved(placeDynamicAllocas(M, findFastClones(M)));
}

PreservedAnalyses CleanUpFastClonesPass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  return preserved(cleanUpFastClones(findFastClones(M), MAM, M));
}

PreservedAnalyses RethrowExitsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function *F : findFastClones(M))
    Changed |= routeRethrowsToReturn(*F);
  return preserved(Changed);
}

PreservedAnalyses RestoreThreadLocalsPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  return preserved(restoreThreadLocalAddresses(M));
}

} // namespace weft
