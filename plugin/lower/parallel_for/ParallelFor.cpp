//===- ParallelFor.cpp - Outline each parallel loop over a subrange -------===//
//
// The front end leaves every parallel loop as a serial loop over an index
// k in [0, n) between two markers (ParallelFor.h). This pass moves the loop
// into a function of its own that runs any subrange [lo, hi) of it, with
// LLVM's CodeExtractor, and replaces it with a call to the runtime, which
// splits [0, n) recursively and spawns the halves (runtime/parallel_for.cpp):
//
//   ; before                              ; after
//   call @__weft_pfor(i64 %n, i64 %g,     %ctx = alloca { ptr }
//                     i32 L)              store ptr %shared, ptr %ctx
//   %lo = call @__weft_pfor_lo(i32 L)     call @__weft_parallel_for(i64 %n,
//   store i64 %lo, ptr %k                   i64 %g, ptr @f.weft.pfor, ptr %ctx)
//   br %for.cond                          br %exit
// for.cond:
//   %hi = call @__weft_pfor_hi(i32 L)     define internal void @f.weft.pfor(
//   ... body uses %shared ...                 ptr %ctx, i64 %lo, i64 %hi)
// for.end:                                  %k = alloca i64      ; its own %k
//   call @__weft_pfor_end(i32 L)            %shared = load ptr, ptr %ctx
//                                           store i64 %lo, ptr %k
//                                           ... for.cond compares with %hi
//
// The region is every block reachable from the loop's start without passing
// its end marker. What it uses from the parent becomes the context: the
// parent's locals by address, since the iterations share the enclosing
// frame (Cilk semantics), and values by copy. Three refinements
// (ParallelForRegion.cpp):
//
//  - The index, the loop variable and every local of the body are allocas
//    used only inside the region; they move into the new function, so each
//    running chunk has its own. The pass moves them itself: CodeExtractor
//    sinks only an alloca with exactly one lifetime start and end, and a
//    local that an exception path also ends has two; it would become a
//    shared input.
//  - Some parent allocas are used inside and outside the region without
//    being shared data: Clang's function-wide slots for exceptions and
//    cleanup destinations. Any parent alloca that the region always writes
//    before it reads, and that the parent writes again before it reads
//    after the loop, gets a private copy in the region: nothing can tell,
//    and chunks no longer race on it.
//  - A parent local whose address never escapes and that the region only
//    reads is passed by value: while the loop runs the parent waits and
//    nothing else can reach it, and a value, unlike an address, lets LLVM
//    keep it in a register (and vectorize the loop) as it would serially.
//
// The front end keeps the region closed: no break, return or goto leaves
// the body, and in C++ a catch-all in each iteration catches what it
// throws. Two edges still leave it. The catch-all's __cxa_end_catch is an
// invoke when the loop sits in a try block or a scope with destructors; it
// throws only if the exception's destructor does, and then terminates here,
// as under noexcept. And Clang shares a few terminal blocks between scopes
// (the terminate handler); each one the region reaches is cloned into it.
//
// Runs first in LowerSpawnsPass: a body that spawns leaves spawn marks in
// the new function, which is then lowered like any spawning function.
//
//===----------------------------------------------------------------------===//

#include "lower/parallel_for/ParallelFor.h"
#include "lower/parallel_for/ParallelForOutliner.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"
#include "shared/RuntimeABI.h"
#include "shared/SourceErrors.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#define DEBUG_TYPE "weft-parallel-for"

using namespace llvm;

STATISTIC(NumParallelLoops, "Parallel loops outlined");

namespace weft {

/// The loop identity a marker call carries in its last argument.
std::optional<uint64_t> loopId(const CallInst *Call) {
  if (Call->arg_size() == 0)
    return std::nullopt;
  if (const auto *C = dyn_cast<ConstantInt>(Call->getArgOperand(
          Call->arg_size() - 1)))
    return C->getZExtValue();
  return std::nullopt;
}

bool isMarkerCall(const Instruction &I, StringRef Name, uint64_t Id) {
  const auto *Call = dyn_cast<CallInst>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == Name && loopId(Call) == Id;
}

void LoopOutliner::fail(const Twine &Msg) {
  std::string Text = ("internal error: this cilk_for cannot be outlined: " +
                      Msg).str();
  if (SourceErrorHook &Hook = sourceErrorHook(); Hook && Hook(Id, Text))
    return;
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F, "weft: " + Text, Begin->getDebugLoc(), DS_Error));
}

/// The catch-all's marker becomes the runtime's __weft_pfor_catch(slot).
void LoopOutliner::lowerCatches() {
  SmallVector<CallInst *, 2> Caught;
  for (Instruction &I : instructions(F))
    if (isMarkerCall(I, PforCaughtName, Id))
      Caught.push_back(cast<CallInst>(&I));
  if (Caught.empty())
    return;
  FunctionCallee Catch = getRuntimeFunction(M, RuntimeFn::PforCatch);
  for (CallInst *Call : Caught) {
    CallInst *Runtime =
        CallInst::Create(Catch, {Call->getArgOperand(0)}, "", Call->getIterator());
    Runtime->setDebugLoc(Call->getDebugLoc());
    Call->eraseFromParent();
  }
}

/// After an error: the loop runs serially over [0, n), so that the IR stays
/// valid (the compilation fails anyway).
void LoopOutliner::runSerially() {
  if (Begin->arg_size() != 3) {
    Begin->eraseFromParent();
    return;
  }
  Value *N = Begin->getArgOperand(0);
  SmallVector<Instruction *, 8> Dead;
  for (Instruction &I : instructions(F)) {
    if (isMarkerCall(I, PforLoName, Id))
      I.replaceAllUsesWith(ConstantInt::get(I.getType(), 0));
    else if (isMarkerCall(I, PforHiName, Id))
      I.replaceAllUsesWith(N);
    else if (!isMarkerCall(I, PforEndName, Id) &&
             !isMarkerCall(I, PforMarkerName, Id))
      continue;
    Dead.push_back(&I);
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
  lowerCatches();
}

/// Finds the end marker and cuts the loop's blocks free of its neighbours:
/// the region starts right after the begin marker and ends at the end one.
bool LoopOutliner::prepare() {
  std::optional<uint64_t> MaybeId = loopId(Begin);
  if (!MaybeId || Begin->arg_size() != 3) {
    fail("malformed marker");
    return false;
  }
  Id = *MaybeId;
  for (Instruction &I : instructions(F))
    if (isMarkerCall(I, PforEndName, Id))
      End = cast<CallInst>(&I);
  if (!End) {
    fail("the end of the loop is missing");
    return false;
  }
  Entry = Begin->getParent()->splitBasicBlock(Begin->getNextNode(),
                                              "weft.pfor.entry");
  Exit = End->getParent()->splitBasicBlock(End, "weft.pfor.exit");
  return true;
}

/// The runtime's chunk function `void(ptr ctx, i64 lo, i64 hi)`: the
/// outlined body, whose other inputs come from the context, and the
/// parent's side that fills the context.
Function *LoopOutliner::buildChunk(Function *Body, CallInst *Call) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  auto *ChunkTy = FunctionType::get(Type::getVoidTy(C), {Ptr, I64, I64}, false);
  Function *Chunk =
      Function::Create(ChunkTy, GlobalValue::InternalLinkage, "", M);
  Chunk->takeName(Body); // <parent>.weft.pfor
  AttrBuilder ChunkAttrs(C, Body->getAttributes().getFnAttrs());
  ChunkAttrs.removeAttribute(SpawningFunctionAttr);
  ChunkAttrs.addAttribute(OutlinedFunctionAttr);
  ChunkAttrs.addAttribute(ParallelLoopChunkAttr);
  Chunk->setAttributes(
      AttributeList::get(C, AttributeList::FunctionIndex, ChunkAttrs));
  if (Body->hasPersonalityFn())
    Chunk->setPersonalityFn(Body->getPersonalityFn());
  Chunk->setSubprogram(Body->getSubprogram());
  Body->setSubprogram(nullptr);
  Chunk->splice(Chunk->end(), Body);
  // Static allocas again, each chunk's own (moveLocalsIntoRegion).
  BasicBlock &ChunkEntry = Chunk->getEntryBlock();
  for (AllocaInst *Slot : reverse(Locals))
    Slot->moveBefore(ChunkEntry, ChunkEntry.getFirstInsertionPt());
  Argument *CtxArg = Chunk->getArg(0);
  CtxArg->setName("ctx");
  Chunk->getArg(1)->setName("lo");
  Chunk->getArg(2)->setName("hi");

  SmallVector<Type *, 8> Fields;
  SmallVector<Value *, 8> Captured;
  for (Value *Actual : Call->args())
    if (Actual != Lo && Actual != Hi) {
      Fields.push_back(Actual->getType());
      Captured.push_back(Actual);
    }
  StructType *CtxTy = StructType::get(C, Fields);
  IRBuilder<> In(&ChunkEntry, ChunkEntry.getFirstNonPHIOrDbgOrAlloca());
  unsigned Field = 0;
  for (unsigned I = 0, E = Call->arg_size(); I != E; ++I) {
    Value *Actual = Call->getArgOperand(I);
    Value *V;
    if (Actual == Lo || Actual == Hi) {
      V = Chunk->getArg(Actual == Lo ? 1 : 2);
    } else {
      V = In.CreateLoad(Fields[Field],
                        In.CreateStructGEP(CtxTy, CtxArg, Field));
      ++Field;
    }
    Body->getArg(I)->replaceAllUsesWith(V);
  }

  Value *Ctx = ConstantPointerNull::get(PointerType::getUnqual(C));
  // A lifetime of the call's own, so that coro-split keeps the context out
  // of the coroutine frame.
  uint64_t CtxBytes = F.getDataLayout().getTypeAllocSize(CtxTy);
  if (!Fields.empty()) {
    BasicBlock &ParentEntry = F.getEntryBlock();
    IRBuilder<> Alloc(&ParentEntry, ParentEntry.getFirstInsertionPt());
    Ctx = Alloc.CreateAlloca(CtxTy, nullptr, "weft.pfor.ctx");
    IRBuilder<> Fill(Call);
    compat::lifetimeStart(Fill, Ctx, CtxBytes);
    for (unsigned I = 0; I != Captured.size(); ++I)
      Fill.CreateStore(Captured[I], Fill.CreateStructGEP(CtxTy, Ctx, I));
  }
  IRBuilder<> B(Call);
  CallInst *Run = B.CreateCall(
      Runtime, {Begin->getArgOperand(0), Begin->getArgOperand(1), Chunk, Ctx});
  Run->setDebugLoc(Call->getDebugLoc());
  if (!Fields.empty())
    compat::lifetimeEnd(B, Ctx, CtxBytes);
  return Chunk;
}

void LoopOutliner::run() {
  if (!prepare() || !collectRegion() || !cloneSharedExits()) {
    runSerially();
    return;
  }
  terminateEscapingUnwinds();
  lowerCatches();
  if (!checkRegion() || !hoistBounds()) {
    runSerially();
    return;
  }
  privatizeTemporaries();
  passReadOnlyLocalsByValue();
  moveLocalsIntoRegion();
  hideTypeIds();
  DominatorTree DT(F);
  CodeExtractor Extractor(Blocks.getArrayRef(), &DT, /*AggregateArgs=*/false,
                          nullptr, nullptr, nullptr, /*AllowVarArgs=*/false,
                          /*AllowAlloca=*/true, nullptr, "weft.pfor");
  CodeExtractorAnalysisCache Cache(F);
  SetVector<Value *> Inputs, Outputs;
  Function *Body = Extractor.isEligible()
                       ? Extractor.extractCodeRegion(Cache, Inputs, Outputs)
                       : nullptr;
  restoreTypeIds();
  if (!Body || !Body->hasOneUse() || !Outputs.empty()) {
    fail("LLVM's code extractor rejected it");
    runSerially();
    return;
  }
  auto *Call = cast<CallInst>(Body->user_back());
  buildChunk(Body, Call);
  Call->eraseFromParent();
  Body->eraseFromParent();
  for (Instruction *I : {static_cast<Instruction *>(Begin),
                         static_cast<Instruction *>(End),
                         static_cast<Instruction *>(Lo),
                         static_cast<Instruction *>(Hi)})
    I->eraseFromParent();
  ++NumParallelLoops;
}

/// The slot an iteration's exception waits in dies at the rethrow after
/// the loop, which takes its value: its lifetime ends before that call
/// rather than after it, so that no unwind edge of the rethrow finds it
/// alive. Otherwise, in a spawning function, whose may-throw calls unwind
/// to a handler that syncs (a suspend point), coro-split would keep the
/// slot in the coroutine frame: a field more, and a slow clone that
/// differs from its twin's (finish/MergeClones.cpp).
static void endExceptionSlotsBeforeRethrow(Module &M) {
  Function *Rethrow = M.getFunction(runtimeName(RuntimeFn::PforRethrow));
  if (!Rethrow)
    return;
  for (User *U : Rethrow->users()) {
    auto *Call = dyn_cast<CallInst>(U);
    auto *Loaded = Call ? dyn_cast<LoadInst>(Call->getArgOperand(0)) : nullptr;
    if (!Loaded || Call->getCalledFunction() != Rethrow)
      continue;
    for (Instruction *I = Call->getNextNode(); I; I = I->getNextNode()) {
      auto *End = dyn_cast<IntrinsicInst>(I);
      if (!End || End->getIntrinsicID() != Intrinsic::lifetime_end)
        break;
      if (End->getArgOperand(End->arg_size() - 1) ==
          Loaded->getPointerOperand()) {
        compat::moveBefore(End, Call);
        break;
      }
    }
  }
}

bool outlineParallelLoops(Module &M) {
  Function *Marker = M.getFunction(PforMarkerName);
  if (!Marker)
    return false;
  // Nounwind: iterations catch their own exceptions.
  FunctionCallee Runtime = getRuntimeFunction(M, RuntimeFn::ParallelFor);
  // Dead blocks would look like outside predecessors of a region.
  SmallPtrSet<Function *, 8> Holders;
  for (User *U : Marker->users())
    if (auto *Call = dyn_cast<CallInst>(U))
      Holders.insert(Call->getFunction());
  for (Function *F : Holders)
    EliminateUnreachableBlocks(*F);
  // Outlining one loop may delete blocks (and markers) of no other loop,
  // but the handles make sure.
  SmallVector<WeakTrackingVH, 4> Loops;
  for (User *U : Marker->users())
    if (auto *Call = dyn_cast<CallInst>(U);
        Call && Call->getCalledFunction() == Marker)
      Loops.push_back(Call);
  for (WeakTrackingVH &Loop : Loops)
    if (auto *Call = dyn_cast_or_null<CallInst>(Loop))
      LoopOutliner(Call, Runtime).run();
  endExceptionSlotsBeforeRethrow(M);
  for (StringRef Name :
       {PforMarkerName, PforLoName, PforHiName, PforEndName, PforCaughtName})
    if (Function *Decl = M.getFunction(Name); Decl && Decl->use_empty())
      Decl->eraseFromParent();
  return true;
}

} // namespace weft
