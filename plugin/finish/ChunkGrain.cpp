//===- ChunkGrain.cpp - A minimum grain for loops of cheap iterations -----===//
//
// The runtime's default grain, min(2048, ceil(n / 8P)), cuts every loop into
// about 8P pieces however little an iteration does (runtime/parallel_for.cpp).
// For a short loop of cheap iterations each piece then costs more to split
// off than to run: a generic container's constructor that fills 72 elements
// with a cilk_for spawns 15 times at P=2 to store 72 pairs, and a program
// that builds a hundred thousand such containers spends a tenth of its
// instructions in the splitter.
//
// Here, once the chunk's body has its callees inlined and is simplified
// (after ChunkCallees.cpp), the plugin prices one iteration, S, with the
// target's size costs, and gives the loop a minimum grain G such that one
// piece runs at least kMinPieceCost of them, G = PowerOf2Ceil(kMinPieceCost /
// S), as OpenCilk's stripmining does with its coarsening factor of 2048:
//
//   call void @__weft_parallel_for(i64 %n, i64 0, ptr @f.weft.pfor, ...)
//   ; after, for S = 4 (G = 512):
//   %default = call i64 @__weft_pfor_grain(i64 %n)
//   %grain = call i64 @llvm.umax.i64(i64 %default, i64 512)
//   call void @__weft_parallel_for(i64 %n, i64 %grain, ptr @f.weft.pfor, ...)
//
// A long loop keeps its default grain (already 2048 iterations past
// 16,384 P of them), and one of fewer than 2G iterations runs as a single
// piece, a few microseconds at most. Only an iteration whose cost is known
// is priced: one that calls a function other than an intrinsic, or runs an
// inner loop without a small constant trip count, keeps the default, as
// does a loop with a grain of its own (`#pragma cilk grainsize`) and a race
// detector build, whose pieces are single iterations.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CodeMetrics.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

#define DEBUG_TYPE "weft-chunk-grain"

using namespace llvm;

STATISTIC(NumLoopsCoarsened, "Parallel loops given a minimum grain");

namespace weft {
namespace {

/// The least cost, in the target's size units (about instructions), that
/// one piece of a loop should run: a spawn and the splitter's step cost
/// about a hundred instructions, so the splitting adds a few percent at most.
constexpr uint64_t kMinPieceCost = 2048;

/// Whether \p I calls code whose cost the caller cannot see: anything but
/// an intrinsic that the target does not lower to a call.
bool callsAFunction(const Instruction &I, const TargetTransformInfo &TTI) {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  const Function *Callee = CB->getCalledFunction();
  return !Callee || !Callee->isIntrinsic() || TTI.isLoweredToCall(Callee);
}

/// The cost of one run of \p L's body with its inner loops, or none if it
/// calls a function or runs an inner loop whose trip count is unknown.
std::optional<uint64_t> iterationCost(const Loop &L, const LoopInfo &LI,
                                      ScalarEvolution &SE,
                                      const TargetTransformInfo &TTI,
                                      AssumptionCache &AC) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (callsAFunction(I, TTI))
        return std::nullopt;
  SmallPtrSet<const Value *, 16> Ephemeral;
  CodeMetrics::collectEphemeralValues(&L, &AC, Ephemeral);
  CodeMetrics Metrics;
  for (const BasicBlock *BB : L.blocks())
    Metrics.analyzeBasicBlock(BB, TTI, Ephemeral);

  uint64_t Cost = 0;
  for (const BasicBlock *BB : L.blocks()) {
    // A block of an inner loop counts once per trip of that loop.
    uint64_t Trips = 1;
    for (const Loop *Inner = LI.getLoopFor(BB); Inner != &L;
         Inner = Inner->getParentLoop()) {
      unsigned InnerTrips = SE.getSmallConstantTripCount(Inner);
      if (InnerTrips == 0)
        return std::nullopt;
      // Saturating: nested constant loops could overflow, and a wrapped
      // product would price a huge iteration as a cheap one.
      Trips = SaturatingMultiply(Trips, uint64_t(InnerTrips));
    }
    std::optional<int64_t> BlockCost = Metrics.NumBBInsts[BB].getValue();
    if (!BlockCost)
      return std::nullopt;
    Cost = SaturatingAdd(
        Cost,
        SaturatingMultiply(Trips, uint64_t(std::max<int64_t>(*BlockCost, 0))));
  }
  return Cost;
}

/// The minimum grain for \p Chunk's loop, or 1 if it needs none.
uint64_t minimumGrain(Function &Chunk, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(Chunk);
  // The chunk is its loop over [lo, hi) and little else; a chunk whose
  // shape is any other is left to the default.
  if (LI.getTopLevelLoops().size() != 1)
    return 1;
  std::optional<uint64_t> Cost = iterationCost(
      *LI.getTopLevelLoops().front(), LI,
      FAM.getResult<ScalarEvolutionAnalysis>(Chunk),
      FAM.getResult<TargetIRAnalysis>(Chunk),
      FAM.getResult<AssumptionAnalysis>(Chunk));
  if (!Cost || *Cost == 0 || *Cost >= kMinPieceCost / 2)
    return 1;
  return PowerOf2Ceil(divideCeil(kMinPieceCost, *Cost));
}

/// Gives each call that runs \p Chunk with the default grain the grain
/// max(default, \p Grain); returns whether there was one.
bool raiseDefaultGrain(Function &Chunk, uint64_t Grain) {
  bool Changed = false;
  for (User *U : Chunk.users()) {
    auto *CB = dyn_cast<CallBase>(U);
    if (!CB || !isSplitterCall(*CB, /*OrPedigreeWrapper=*/true) ||
        CB->getArgOperand(2) != &Chunk)
      continue;
    auto *Written = dyn_cast<ConstantInt>(CB->getArgOperand(1));
    if (!Written || !Written->isZero()) // the front end's "no grain given"
      continue;
    IRBuilder<> B(CB);
    Value *Default = B.CreateCall(
        getRuntimeFunction(*Chunk.getParent(), RuntimeFn::ParallelForGrain),
        {CB->getArgOperand(0)}, "default.grain");
    Value *Raised = B.CreateBinaryIntrinsic(
        Intrinsic::umax, Default, B.getInt64(Grain), nullptr, "grain");
    CB->setArgOperand(1, Raised);
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses MinimumGrainPass::run(Module &M,
                                        ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (!isPlainChunk(F))
      continue;
    uint64_t Grain = minimumGrain(F, FAM);
    if (Grain <= 1 || !raiseDefaultGrain(F, Grain))
      continue;
    ++NumLoopsCoarsened;
    Changed = true;
  }
  // Only the loops' parents changed, by a call and an intrinsic before an
  // existing call: no CFG, and no analysis of the chunks.
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
