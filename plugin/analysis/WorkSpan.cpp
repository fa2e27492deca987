//===- WorkSpan.cpp - Calls into the work/span analysis (workspan mode) ---===//
//
// WorkSpan.h lists the calls and where they go; runtime/analysis/workspan.cpp is
// what they measure. The calls take no frame or coroutine state, so that
// the lowering around them is the normal mode's, instruction for
// instruction: the analysis measures the code that normally runs.
//
//===----------------------------------------------------------------------===//

#include "analysis/WorkSpan.h"
#include "shared/RuntimeABI.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace weft {
namespace {

/// Parallel loops call the splitter whose own spawns report to the
/// analysis; the normal one would count a whole loop as one serial strand.
void redirectParallelLoops(Module &M) {
  Function *Normal = M.getFunction(runtimeName(RuntimeFn::ParallelFor));
  if (!Normal || !Normal->isDeclaration())
    return;
  const char *WorkSpanName = runtimeName(RuntimeFn::ParallelForWorkSpan);
  if (Function *Existing = M.getFunction(WorkSpanName)) {
    Normal->replaceAllUsesWith(Existing);
    Normal->eraseFromParent();
    return;
  }
  Normal->setName(WorkSpanName);
}

/// A reference to the analysis from every module built in workspan mode, so
/// that the linker takes runtime/analysis/workspan.cpp (which pins the worker count
/// to one and prints the report) even for a program that never spawns. One
/// copy per program: the variable is in a comdat of its own.
void anchorAnalysis(Module &M) {
  constexpr const char *AnchorName = "__weft_workspan_anchor";
  if (M.getNamedGlobal(AnchorName))
    return;
  FunctionCallee Enter = getRuntimeFunction(M, RuntimeFn::WorkSpanEnter);
  auto *Callee = cast<Constant>(Enter.getCallee());
  auto *Anchor = new GlobalVariable(M, Callee->getType(), /*isConstant=*/true,
                                    GlobalValue::LinkOnceODRLinkage, Callee,
                                    AnchorName);
  Anchor->setVisibility(GlobalValue::HiddenVisibility);
  Anchor->setComdat(M.getOrInsertComdat(AnchorName));
  appendToCompilerUsed(M, {Anchor});
}

} // namespace

void prepareWorkSpanModule(Module &M) {
  redirectParallelLoops(M);
  anchorAnalysis(M);
}

WorkSpanHooks::WorkSpanHooks(Module &M) {
  // Nounwind: plain calls, even where the lowering turns may-throw calls
  // into invokes.
  Enter = getRuntimeFunction(M, RuntimeFn::WorkSpanEnter);
  Spawn = getRuntimeFunction(M, RuntimeFn::WorkSpanSpawn);
  Continue = getRuntimeFunction(M, RuntimeFn::WorkSpanContinue);
  Sync = getRuntimeFunction(M, RuntimeFn::WorkSpanSync);
  Exit = getRuntimeFunction(M, RuntimeFn::WorkSpanExit);
}

void WorkSpanHooks::enter(Instruction *Before) {
  Record = IRBuilder<>(Before).CreateCall(Enter, {}, "weft.workspan");
}

void WorkSpanHooks::spawn(Instruction *Before) {
  IRBuilder<>(Before).CreateCall(Spawn, {Record});
}

void WorkSpanHooks::continuation(BasicBlock *Cont) {
  IRBuilder<>(Cont, Cont->getFirstInsertionPt()).CreateCall(Continue, {Record});
}

void WorkSpanHooks::sync(Instruction *Before) {
  IRBuilder<>(Before).CreateCall(Sync, {Record});
}

void WorkSpanHooks::exit(Instruction *Before) {
  IRBuilder<>(Before).CreateCall(Exit, {Record});
}

} // namespace weft
