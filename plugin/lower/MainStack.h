//===- MainStack.h - Run main on the runtime's deep stack -----------------===//
#ifndef WEFT_PLUGIN_LOWER_MAINSTACK_H
#define WEFT_PLUGIN_LOWER_MAINSTACK_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Has a program's main entered through the runtime's __weft_run_main, so
/// that it runs on a stack deep enough for spawning code (MainStack.cpp,
/// runtime/main_stack.h).
class MainStackPass : public llvm::PassInfoMixin<MainStackPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace weft

#endif // WEFT_PLUGIN_LOWER_MAINSTACK_H
