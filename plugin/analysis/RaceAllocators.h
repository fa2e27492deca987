//===- RaceAllocators.h - Library allocators as allocators (race mode) ----===//
#ifndef WEFT_PLUGIN_ANALYSIS_RACEALLOCATORS_H
#define WEFT_PLUGIN_ANALYSIS_RACEALLOCATORS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// In race mode, at the start of the pipeline: wraps each function the
/// front end marked as a library allocator's entry point
/// (frontend/KnownAllocators.cpp) in the race detector's model of an
/// allocator: checking off inside, the block announced as allocated or
/// freed (RaceAllocators.cpp).
class RaceAllocatorsPass : public llvm::PassInfoMixin<RaceAllocatorsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace weft

#endif // WEFT_PLUGIN_ANALYSIS_RACEALLOCATORS_H
