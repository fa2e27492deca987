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

#include "llvm/IR/PassManager.h"

namespace weft {

class LowerSpawnsPass : public llvm::PassInfoMixin<LowerSpawnsPass> {
public:
  /// With \p WorkSpan, the lowering also emits the calls of the work/span
  /// analysis (analysis/WorkSpan.h); opt spells it weft-lower-spawns<workspan>.
  explicit LowerSpawnsPass(bool WorkSpan = false) : WorkSpan(WorkSpan) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Spawning functions must be lowered at -O0 too (optnone functions).
  static bool isRequired() { return true; }

private:
  bool WorkSpan;
};

} // namespace weft

#endif // WEFT_PLUGIN_LOWER_LOWERSPAWNS_H
