//===- Pedigrees.cpp - Keeping each strand's pedigree (pedigree builds) ---===//
//
// Pedigrees.h shows the calls and where they go; runtime/pedigree.cpp is
// what they keep. Every call is placed statically, at the same points
// whether or not anything is stolen, so that the ranks depend on the
// program alone.
//
//===----------------------------------------------------------------------===//

#include "lower/Pedigrees.h"
#include "shared/LLVMCompat.h"
#include "shared/RuntimeABI.h"

#include "weft/frame_abi.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace weft {

namespace {

/// Marks the start of each iteration of \p Chunk, an outlined loop
/// (parallel_for/ParallelFor.cpp) whose loop runs `for (k = lo; k < hi;
/// ++k)`: where the comparison with `hi` enters the body, the iteration's
/// pedigree begins. Returns false, changing nothing, if the loop is not in
/// that form.
bool markIterations(Function &Chunk, FunctionCallee Mark) {
  Argument *Hi = Chunk.getArg(2);
  SmallVector<std::pair<BasicBlock *, Value *>, 1> Starts;
  for (User *U : Hi->users()) {
    auto *Cmp = dyn_cast<ICmpInst>(U);
    if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_ULT ||
        Cmp->getOperand(1) != Hi)
      return false;
    for (User *CmpUser : Cmp->users()) {
      auto *Br = dyn_cast<BranchInst>(CmpUser);
      if (!Br || !Br->isConditional() ||
          !Br->getSuccessor(0)->getSinglePredecessor())
        return false;
      Starts.push_back({Br->getSuccessor(0), Cmp->getOperand(0)});
    }
  }
  if (Starts.empty())
    return false;
  for (auto [Body, Index] : Starts)
    IRBuilder<>(Body, Body->getFirstInsertionPt()).CreateCall(Mark, {Index});
  return true;
}

} // namespace

bool routeParallelLoopsThroughPedigrees(Module &M) {
  Function *Splitter = M.getFunction(runtimeName(RuntimeFn::ParallelFor));
  if (!Splitter)
    return false;
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Splitter->users())
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledFunction() == Splitter)
      Calls.push_back(CI);
  FunctionCallee Mark = getRuntimeFunction(M, RuntimeFn::PedigreeIteration);
  for (CallInst *CI : Calls) {
    // A chunk whose iterations are marked runs whole pieces, as without
    // pedigrees; any other is called once per iteration.
    auto *Chunk = dyn_cast<Function>(CI->getArgOperand(2));
    RuntimeFn Entry = Chunk && markIterations(*Chunk, Mark)
                          ? RuntimeFn::PedigreeParallelForChunks
                          : RuntimeFn::PedigreeParallelFor;
    SmallVector<Value *, 5> Args(CI->args());
    Args.push_back(Splitter);
    CallInst *New = CallInst::Create(getRuntimeFunction(M, Entry), Args, "",
                                     CI->getIterator());
    New->setDebugLoc(CI->getDebugLoc());
    CI->eraseFromParent();
  }
  return !Calls.empty();
}

PedigreeHooks::PedigreeHooks(Module &M) {
  Enter = getRuntimeFunction(M, RuntimeFn::PedigreeEnter);
  Spawn = getRuntimeFunction(M, RuntimeFn::PedigreeSpawn);
  Resume = getRuntimeFunction(M, RuntimeFn::PedigreeResume);
  Sync = getRuntimeFunction(M, RuntimeFn::PedigreeSync);
}

void PedigreeHooks::enter(Instruction *Before) {
  Frame = IRBuilder<>(Before).CreateCall(Enter, {}, "weft.pedigree");
}

AllocaInst *PedigreeHooks::spawn(Instruction *SpawnAt, Instruction *After) {
  Function &F = *SpawnAt->getFunction();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  AllocaInst *Child = Entry.CreateAlloca(
      ArrayType::get(Entry.getInt8Ty(), WEFT_PEDIGREE_FRAME_SIZE), nullptr,
      "weft.pedigree.child");
  Child->setAlignment(Align(WEFT_PEDIGREE_FRAME_ALIGN));
  IRBuilder<> B(SpawnAt);
  compat::lifetimeStart(B, Child, WEFT_PEDIGREE_FRAME_SIZE);
  B.CreateCall(Spawn, {Frame, Child});
  B.SetInsertPoint(After);
  B.CreateCall(Resume, {Frame});
  compat::lifetimeEnd(B, Child, WEFT_PEDIGREE_FRAME_SIZE);
  return Child;
}

void PedigreeHooks::sync(Instruction *Before) {
  IRBuilder<>(Before).CreateCall(Sync, {Frame});
}

void PedigreeHooks::resume(IRBuilderBase &B, Value *Same) {
  B.CreateCall(Resume, {Same ? Same : Frame});
}

void PedigreeHooks::resumeInLandingPads(Function &F) {
  for (BasicBlock &BB : F)
    if (auto *Pad = dyn_cast<LandingPadInst>(&*BB.getFirstNonPHIIt())) {
      IRBuilder<> B(Pad->getNextNode());
      resume(B);
    }
}

void PedigreeHooks::sinkEnter() {
  auto *Enter = cast<Instruction>(Frame);
  Function &F = *Enter->getFunction();
  DominatorTree DT(F);
  BasicBlock *Common = nullptr;
  auto Include = [&](BasicBlock *BB) {
    if (DT.isReachableFromEntry(BB))
      Common = Common ? DT.findNearestCommonDominator(Common, BB) : BB;
  };
  for (Use &U : Enter->uses()) {
    // A phi needs the frame only where it comes from (the exit's, from
    // the suspended paths).
    if (auto *Phi = dyn_cast<PHINode>(U.getUser()))
      Include(Phi->getIncomingBlock(U));
    else
      Include(cast<Instruction>(U.getUser())->getParent());
  }
  // Nothing gained in the entry block; and a landing pad's first user may
  // run while the thread's frame is still a child's that threw.
  if (!Common || Common == Enter->getParent() || Common->isEHPad())
    return;
  // Any point of the function's own code will do: the thread's frame is
  // the function's there, whatever ran before.
  Instruction *Before = Common->getTerminator();
  for (Instruction &I : *Common)
    if (!isa<PHINode>(I) && is_contained(Enter->users(), &I)) {
      Before = &I;
      break;
    }
  compat::moveBefore(Enter, Before);
}

} // namespace weft
