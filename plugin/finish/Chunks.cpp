//===- Chunks.cpp - What the chunk steps share about parallel loops -------===//
//
// A cilk_for's body is a chunk, chunk(context, lo, hi), which the lowering
// hands to a splitter call (lower/parallel_for/ParallelFor.cpp). The steps
// that reshape chunks after the inliner (ChunkCallees.cpp, ChunkContext.cpp,
// ChunkGrain.cpp) recognise them and their splitters alike, and simplify a
// chunk they changed alike.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/Markers.h"
#include "shared/RuntimeABI.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace weft {

bool isPlainChunk(const Function &F) {
  return !F.isDeclaration() && F.hasFnAttribute(ParallelLoopChunkAttr) &&
         !F.hasFnAttribute(SpawningFunctionAttr) && !F.isPresplitCoroutine();
}

bool isSplitterCall(const CallBase &CB, bool OrPedigreeWrapper) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return false;
  StringRef Name = Callee->getName();
  return Name == runtimeName(RuntimeFn::ParallelFor) ||
         Name == runtimeName(RuntimeFn::ParallelForWorkSpan) ||
         (OrPedigreeWrapper &&
          Name == runtimeName(RuntimeFn::PedigreeParallelFor));
}

void simplifyChangedChunk(Function &Chunk, FunctionPassManager &Simplify,
                          FunctionAnalysisManager &FAM) {
  FAM.invalidate(Chunk, PreservedAnalyses::none());
  FAM.invalidate(Chunk, Simplify.run(Chunk, FAM));
}

} // namespace weft
