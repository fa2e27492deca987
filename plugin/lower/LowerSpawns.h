//===- LowerSpawns.h - Split spawning functions into fast and slow clones -===//
//
// The IR half of Weft starts here. The front end leaves spawn, sync and
// object marks in the IR (shared/Markers.h shows them).
//
// LowerSpawnsPass turns every function holding such marks into an LLVM
// switch-resume coroutine whose ramp is the fast clone and whose .resume
// function is the slow clone; see LowerSpawns.cpp for the strategy.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_LOWER_LOWERSPAWNS_H
#define WEFT_PLUGIN_LOWER_LOWERSPAWNS_H

#include "analysis/WorkSpan.h"

#include "llvm/IR/PassManager.h"

namespace weft {

class LowerSpawnsPass : public llvm::PassInfoMixin<LowerSpawnsPass> {
public:
  /// With \p Mode WorkSpan or Race, the lowering also emits the calls of
  /// the work/span analysis or the race detector (analysis/WorkSpan.h); opt
  /// spells them weft-lower-spawns<workspan> and weft-lower-spawns<race>.
  /// With \p ForwardTwins (the pipelines at -O1 and above, outside race
  /// mode; opt's weft-lower-spawns<twins>), it first makes each spawning
  /// function that is its spawning callee's twin a call of it
  /// (shared/TwinFunctions.h).
  /// With \p Pedigrees (pedigree builds; opt's
  /// weft-lower-spawns<pedigrees>), every spawning function keeps its
  /// strands' pedigrees (Pedigrees.h).
  explicit LowerSpawnsPass(Analysis Mode = Analysis::None,
                           bool ForwardTwins = false, bool Pedigrees = false)
      : Mode(Mode), ForwardTwins(ForwardTwins), Pedigrees(Pedigrees) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Spawning functions must be lowered at -O0 too (optnone functions).
  static bool isRequired() { return true; }

private:
  Analysis Mode;
  bool ForwardTwins;
  bool Pedigrees;
};

} // namespace weft

#endif // WEFT_PLUGIN_LOWER_LOWERSPAWNS_H
