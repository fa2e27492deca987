//===- Pipeline.cpp - Where Weft's IR passes run ---------------------------===//
//
// The lowering runs at the start of every pipeline, before the standard
// coroutine passes split each spawning function into its fast and slow
// clones; the post-split steps run at its end, when nothing optimises after
// them. Both the Clang plugin and the opt plugin register through here.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"

#include "finish/PostSplit.h"
#include "lower/LowerSpawns.h"
#include "lower/MainStack.h"

#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace weft {

void registerPasses(PassBuilder &PB, bool InPipelines, bool WorkSpan) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "weft-lower-spawns" ||
            Name == "weft-lower-spawns<workspan>") {
          MPM.addPass(LowerSpawnsPass(Name.ends_with("<workspan>")));
          return true;
        }
        if (Name == "weft-main-stack") {
          MPM.addPass(MainStackPass());
          return true;
        }
        if (Name == "weft-frame-to-stack") {
          MPM.addPass(FrameToStackPass());
          return true;
        }
        return false;
      });
  if (!InPipelines)
    return;
  PB.registerPipelineStartEPCallback(
      [WorkSpan](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(LowerSpawnsPass(WorkSpan));
        MPM.addPass(MainStackPass());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(FrameToStackPass(Level != OptimizationLevel::O0));
      });
}

} // namespace weft
