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
/// analysis; the normal one would count a whole loop as one serial strand
/// (and, in race mode, see no race between its iterations).
void redirectParallelLoops(Module &M, Analysis Mode) {
  Function *Normal = M.getFunction(runtimeName(RuntimeFn::ParallelFor));
  if (!Normal || !Normal->isDeclaration())
    return;
  const char *WorkSpanName =
      runtimeName(Mode == Analysis::Race ? RuntimeFn::ParallelForRace
                                         : RuntimeFn::ParallelForWorkSpan);
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
/// copy per program: the variable is in a comdat of its own. In race mode
/// the reference is to __weft_race_anchor, which pulls the detector out of
/// libweft_race.a.
void anchorAnalysis(Module &M, Analysis Mode) {
  bool Race = Mode == Analysis::Race;
  const char *AnchorName =
      Race ? "__weft_race_anchor_ref" : "__weft_workspan_anchor";
  if (M.getNamedGlobal(AnchorName))
    return;
  FunctionCallee Enter = getRuntimeFunction(
      M, Race ? RuntimeFn::RaceAnchor : RuntimeFn::WorkSpanEnter);
  auto *Callee = cast<Constant>(Enter.getCallee());
  auto *Anchor = new GlobalVariable(M, Callee->getType(), /*isConstant=*/true,
                                    GlobalValue::LinkOnceODRLinkage, Callee,
                                    AnchorName);
  Anchor->setVisibility(GlobalValue::HiddenVisibility);
  Anchor->setComdat(M.getOrInsertComdat(AnchorName));
  appendToCompilerUsed(M, {Anchor});
}

} // namespace

void prepareWorkSpanModule(Module &M, Analysis Mode) {
  assert(Mode != Analysis::None && "normal mode reports to no analysis");
  redirectParallelLoops(M, Mode);
  anchorAnalysis(M, Mode);
}

WorkSpanHooks::WorkSpanHooks(Module &M, Analysis Mode) {
  assert(Mode != Analysis::None && "normal mode reports to no analysis");
  // Nounwind: plain calls, even where the lowering turns may-throw calls
  // into invokes.
  bool Race = Mode == Analysis::Race;
  Enter = getRuntimeFunction(M, Race ? RuntimeFn::RaceEnter
                                     : RuntimeFn::WorkSpanEnter);
  Spawn = getRuntimeFunction(M, Race ? RuntimeFn::RaceSpawn
                                     : RuntimeFn::WorkSpanSpawn);
  Continue = getRuntimeFunction(M, Race ? RuntimeFn::RaceContinue
                                        : RuntimeFn::WorkSpanContinue);
  Sync = getRuntimeFunction(M, Race ? RuntimeFn::RaceSync
                                    : RuntimeFn::WorkSpanSync);
  Exit = getRuntimeFunction(M, Race ? RuntimeFn::RaceExit
                                    : RuntimeFn::WorkSpanExit);
  RecordName = Race ? "weft.race" : "weft.workspan";
}

void WorkSpanHooks::enter(Instruction *Before) {
  Record = IRBuilder<>(Before).CreateCall(Enter, {}, RecordName);
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
