//===- Pipeline.cpp - Where Weft's IR passes run ---------------------------===//
//
// The lowering runs at the start of every pipeline, before the standard
// coroutine passes split each spawning function into its fast and slow
// clones; the loop chunks' sole callees are inlined after the inliner, before
// the optimizer's pipeline; the other post-split steps run at its end, when
// nothing optimises after them. Both the Clang plugin and the opt plugin
// register through here.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"

#include "analysis/RaceAllocators.h"
#include "finish/PostSplit.h"
#include "lower/LowerSpawns.h"
#include "lower/MainStack.h"
#include "shared/LLVMCompat.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

using namespace llvm;

namespace weft {
namespace {

/// Adds the post-split step called \p Name, alone or all of them; returns
/// false if there is none of that name.
bool addPostSplitPass(StringRef Name, ModulePassManager &MPM) {
  if (Name == "weft-finish" || Name == "weft-finish<clean-up>")
    MPM.addPass(FinishPass(Name.ends_with("<clean-up>")));
  else if (Name == "weft-finish<race>" || Name == "weft-finish<clean-up;race>")
    MPM.addPass(FinishPass(Name.contains("clean-up"), /*Race=*/true));
  else if (Name == "weft-race-frame")
    MPM.addPass(RaceFramePass());
  else if (Name == "weft-race-locations")
    MPM.addPass(RaceLocationsPass());
  else if (Name == "weft-race-thread-locals")
    MPM.addPass(RaceThreadLocalsPass());
  else if (Name == "weft-race-vector-accesses")
    MPM.addPass(RaceVectorAccessesPass());
  else if (Name == "weft-race-ranges")
    MPM.addPass(RaceRangesPass());
  else if (Name == "weft-inline-fast-path")
    MPM.addPass(InlineFastPathPass());
  else if (Name == "weft-stolen-checks")
    MPM.addPass(StolenChecksPass());
  else if (Name == "weft-frame-to-stack")
    MPM.addPass(FrameToStackPass());
  else if (Name == "weft-place-dynamic-allocas")
    MPM.addPass(PlaceDynamicAllocasPass());
  else if (Name == "weft-clean-up-fast-clones")
    MPM.addPass(CleanUpFastClonesPass());
  else if (Name == "weft-spawn-tail-calls")
    MPM.addPass(SpawnTailCallsPass());
  else if (Name == "weft-rethrow-exits")
    MPM.addPass(RethrowExitsPass());
  else if (Name == "weft-restore-thread-locals")
    MPM.addPass(RestoreThreadLocalsPass());
  else if (Name == "weft-merge-clones")
    MPM.addPass(MergeClonesPass());
  else
    return false;
  return true;
}

} // namespace

void registerPasses(PassBuilder &PB, bool InPipelines, Analysis Mode,
                    bool Pedigrees) {
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM,
            ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "weft-inline-chunk-callees") {
          MPM.addPass(
              InlineChunkCalleesPass(PB.buildFunctionSimplificationPipeline(
                  OptimizationLevel::O2, ThinOrFullLTOPhase::None)));
          return true;
        }
        if (Name == "weft-chunk-context") {
          MPM.addPass(
              HoistContextLoadsPass(PB.buildFunctionSimplificationPipeline(
                  OptimizationLevel::O2, ThinOrFullLTOPhase::None)));
          return true;
        }
        if (Name == "weft-chunk-grain") {
          MPM.addPass(MinimumGrainPass());
          return true;
        }
        if (Name == "weft-lower-spawns") {
          MPM.addPass(LowerSpawnsPass());
          return true;
        }
        if (Name == "weft-lower-spawns<twins>") {
          MPM.addPass(LowerSpawnsPass(Analysis::None, /*ForwardTwins=*/true));
          return true;
        }
        if (Name == "weft-lower-spawns<workspan>") {
          MPM.addPass(LowerSpawnsPass(Analysis::WorkSpan));
          return true;
        }
        if (Name == "weft-lower-spawns<race>") {
          MPM.addPass(LowerSpawnsPass(Analysis::Race));
          return true;
        }
        if (Name == "weft-lower-spawns<pedigrees>") {
          MPM.addPass(LowerSpawnsPass(Analysis::None, /*ForwardTwins=*/false,
                                      /*Pedigrees=*/true));
          return true;
        }
        if (Name == "weft-main-stack") {
          MPM.addPass(MainStackPass());
          return true;
        }
        if (Name == "weft-race-allocators") {
          MPM.addPass(RaceAllocatorsPass());
          return true;
        }
        return addPostSplitPass(Name, MPM);
      });
  if (!InPipelines)
    return;
  PB.registerPipelineStartEPCallback(
      [Mode, Pedigrees](ModulePassManager &MPM, OptimizationLevel Level) {
        // Before anything inlines the allocators' entry points into their
        // callers (analysis/RaceAllocators.cpp).
        if (Mode == Analysis::Race)
          MPM.addPass(RaceAllocatorsPass());
        // Race reports name each access's function: no twin forwards there.
        MPM.addPass(LowerSpawnsPass(
            Mode, Level != OptimizationLevel::O0 && Mode != Analysis::Race,
            Pedigrees));
        MPM.addPass(MainStackPass());
      });
  // Clang adds the sanitizers' passes at the same extension point, after
  // this callback, which the plugin registers first: in race mode
  // (-fsanitize=thread) ThreadSanitizer instruments the result of
  // weft-finish, the split clones, at -O0 and -O2 alike (checked with
  // -fdebug-pass-manager: LowerSpawns, MainStack ... CoroSplit ... Finish,
  // then ModuleThreadSanitizerPass and ThreadSanitizerPass). So it would
  // see the frames' own accesses, which weft-finish<race> hides from it
  // (finish/RaceFrame.cpp).
  // Each fast clone's stolen checks, folded as soon as coro-split has made
  // it, before the inliner weighs it for its callers (StolenChecks.cpp).
  PB.registerCGSCCOptimizerLateEPCallback(
      [](CGSCCPassManager &CGPM, OptimizationLevel Level) {
        if (Level != OptimizationLevel::O0)
          CGPM.addPass(
              createCGSCCToFunctionPassAdaptor(EarlyStolenChecksPass()));
      });
  // The chunks' sole callees, once the inliner has run everywhere: it
  // visited each chunk before the chunk's parent (ChunkCallees.cpp).
  compat::registerOptimizerEarly(
      PB, [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Level == OptimizationLevel::O0)
          return;
        MPM.addPass(InlineChunkCalleesPass(
            PB.buildFunctionSimplificationPipeline(Level,
                                                   ThinOrFullLTOPhase::None)));
        // Once the parents are final, which the chunks read (ChunkContext.cpp).
        MPM.addPass(HoistContextLoadsPass(
            PB.buildFunctionSimplificationPipeline(Level,
                                                   ThinOrFullLTOPhase::None)));
        // Priced once the chunks' bodies are whole (ChunkGrain.cpp).
        MPM.addPass(MinimumGrainPass());
      });
  compat::registerOptimizerLast(
      PB, [Mode](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(FinishPass(Level != OptimizationLevel::O0,
                               Mode == Analysis::Race));
        // The clones of a spawning function that every caller inlined with
        // its spawning path folded away name each other only
        // (sinkResumePointers in SinkFrameInit.cpp): they go.
        if (Level != OptimizationLevel::O0)
          MPM.addPass(GlobalDCEPass());
      });
}

} // namespace weft
