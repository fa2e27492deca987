//===- ParallelForOutliner.h - Outlining one parallel loop (internal) ----===//
//
// ParallelFor.cpp explains the transformation and drives it; the steps
// that shape the loop's region before CodeExtractor runs are in
// ParallelForRegion.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_PARALLELFOROUTLINER_H
#define WEFT_PLUGIN_PARALLELFOROUTLINER_H

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <optional>

namespace weft {

/// The loop identity a marker call carries in its last argument.
std::optional<uint64_t> loopId(const llvm::CallInst *Call);

/// Whether \p I calls the marker \p Name of the loop \p Id.
bool isMarkerCall(const llvm::Instruction &I, llvm::StringRef Name,
                  uint64_t Id);

/// Outlines one parallel loop; see ParallelFor.cpp.
class LoopOutliner {
public:
  LoopOutliner(llvm::CallInst *Begin, llvm::FunctionCallee Runtime)
      : Begin(Begin), F(*Begin->getFunction()), M(*F.getParent()),
        Runtime(Runtime) {}

  void run();

private:
  // ParallelFor.cpp
  bool prepare();
  llvm::Function *buildChunk(llvm::Function *Body, llvm::CallInst *Call);
  void fail(const llvm::Twine &Msg);
  void runSerially();
  void lowerCatches();

  // ParallelForRegion.cpp
  bool collectRegion();
  bool cloneSharedExits();
  void terminateEscapingUnwinds();
  bool checkRegion();
  bool hoistBounds();
  void privatizeTemporaries();
  void passReadOnlyLocalsByValue();
  void moveLocalsIntoRegion();
  void hideTypeIds();
  void restoreTypeIds();

  llvm::CallInst *Begin;
  llvm::Function &F;
  llvm::Module &M;
  llvm::FunctionCallee Runtime;
  uint64_t Id = 0;
  llvm::CallInst *End = nullptr;
  llvm::BasicBlock *Entry = nullptr, *Exit = nullptr;
  llvm::SetVector<llvm::BasicBlock *> Blocks;
  llvm::CallInst *Lo = nullptr, *Hi = nullptr; // in the parent, before the loop
  llvm::SmallVector<std::pair<llvm::CallInst *, llvm::Function *>, 2> TypeIds;
  // Unwind edges out of the loop's catch-all handler (collectRegion).
  llvm::SmallVector<llvm::InvokeInst *, 2> Escaping;
  // The region's own allocas, moved from the parent's entry block.
  llvm::SmallVector<llvm::AllocaInst *, 16> Locals;
};

} // namespace weft

#endif // WEFT_PLUGIN_PARALLELFOROUTLINER_H
