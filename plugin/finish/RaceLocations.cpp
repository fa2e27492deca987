//===- RaceLocations.cpp - Every checked access names a source line -------===//
//
// ThreadSanitizer's call for an access takes the access's debug location,
// and the race report prints it. An access that an optimisation moved has
// line 0: LICM gives a load it hoists out of a loop a line-0 location in
// the same scope (Instruction::updateLocationAfterHoist), and some
// compiler-made accesses have no location at all. The report would then
// say `file.cpp:0:0` for one side of the race, which names no line.
//
// So in race mode, before ThreadSanitizer runs, each access it may
// instrument (a load, a store, an atomic, a memory intrinsic), or that
// RaceVectorAccesses.cpp checks lane by lane (a gather, a masked load or
// store), that has no line of its own takes the nearest line in its block: the next
// instruction's with a line (for a hoisted load, the loop's own branch or
// the code the loop begins with), else the previous one's, else that of
// the block's single predecessor's terminator, else the function's line.
//
//   %g = load i64, ptr @g, !dbg !{line: 0}    ; hoisted out of `for (...)`
//   br label %loop, !dbg !{line: 7}
//     ==>
//   %g = load i64, ptr @g, !dbg !{line: 7}
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace weft {
namespace {

/// Whether ThreadSanitizer may instrument \p I, or a check per lane will
/// (RaceVectorAccesses.cpp, which takes \p I's location).
bool isAccess(Instruction &I) {
  return isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst,
             MemIntrinsic>(I) ||
         isVectorLaneAccess(I);
}

bool hasLine(const Instruction &I) {
  const DebugLoc &Loc = I.getDebugLoc();
  return Loc && Loc.getLine() != 0;
}

/// The location nearest to \p I that names a line, or null.
DebugLoc nearestLine(Instruction &I) {
  for (Instruction *Next = I.getNextNode(); Next; Next = Next->getNextNode())
    if (hasLine(*Next))
      return Next->getDebugLoc();
  for (Instruction *Prev = I.getPrevNode(); Prev; Prev = Prev->getPrevNode())
    if (hasLine(*Prev))
      return Prev->getDebugLoc();
  if (BasicBlock *Pred = I.getParent()->getSinglePredecessor())
    if (hasLine(*Pred->getTerminator()))
      return Pred->getTerminator()->getDebugLoc();
  return DebugLoc();
}

bool nameLines(Function &F) {
  DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return false; // built without -g: nothing to name
  bool Changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (!isAccess(I) || hasLine(I) || I.hasMetadata(LLVMContext::MD_nosanitize))
        continue;
      DebugLoc Loc = nearestLine(I);
      if (!Loc)
        Loc = DILocation::get(F.getContext(), SP->getLine(), 0, SP);
      I.setDebugLoc(Loc);
      Changed = true;
    }
  return Changed;
}

} // namespace

bool nameAccessLines(Module &M) {
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration())
      Changed |= nameLines(F);
  return Changed;
}

PreservedAnalyses RaceLocationsPass::run(Module &M, ModuleAnalysisManager &) {
  return nameAccessLines(M) ? PreservedAnalyses::none()
                            : PreservedAnalyses::all();
}

} // namespace weft
