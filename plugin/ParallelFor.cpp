//===- ParallelFor.cpp - Outline each parallel loop over a subrange -------===//
//
// The front end leaves every parallel loop as a serial loop over an index
// k in [0, n) between two markers (ParallelFor.h). This pass moves the loop
// into a function of its own that runs any subrange [lo, hi) of it, with
// LLVM's CodeExtractor, and replaces it with a call to the runtime, which
// splits [0, n) recursively and spawns the halves (runtime/parallel_for.cpp):
//
//   ; before                                 ; after
//   call @__weft_pfor(i64 %n, i64 %g, i32 L) %ctx = alloca { ptr }
//   %lo = call i64 @__weft_pfor_lo(i32 L)    store ptr %shared, ptr %ctx
//   store i64 %lo, ptr %k                    call @__weft_parallel_for(i64 %n,
//   br %for.cond                               i64 %g, ptr @f.weft.pfor, ptr %ctx)
// for.cond:                                  br %exit
//   %hi = call i64 @__weft_pfor_hi(i32 L)
//   ... body uses %shared ...                define internal void
// for.end:                                     @f.weft.pfor(ptr %ctx, i64 %lo, i64 %hi)
//   call @__weft_pfor_end(i32 L)               %shared = load ptr, ptr %ctx
//                                              store i64 %lo, ptr %k ; its own %k
//                                              ... for.cond compares with %hi ...
//
// The region is every block reachable from the loop's start without passing
// its end marker. What it uses from the parent becomes the context: the
// parent's locals by address, since the iterations share the enclosing
// frame (Cilk semantics), and values by copy. The index, the loop variable
// and every local of the body are allocas used only inside the region; they
// move into the new function, so each running chunk has its own. (The pass
// moves them itself: CodeExtractor sinks only an alloca with exactly one
// lifetime start and end, and a local that an exception path also ends has
// two ends; it would become a shared input.) Two kinds of parent allocas are used inside and outside the
// region without being shared data: Clang's function-wide slots for
// exceptions and cleanup destinations. Any parent alloca that the region
// always writes before it reads, and that the parent writes again before it
// reads after the loop, is given a private copy in the region: nothing can
// tell, and chunks no longer race on it. And a parent local whose
// address never escapes and that the region only reads is passed by value:
// while the loop runs the parent waits and nothing else can reach it, and
// a value, unlike an address, lets LLVM keep it in a register (and
// vectorize the loop) as it would serially.
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

#include "ParallelFor.h"
#include "SourceErrors.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "weft-parallel-for"

using namespace llvm;

STATISTIC(NumParallelLoops, "Parallel loops outlined");
STATISTIC(NumPrivatized, "Parent allocas privatized in a parallel loop");

namespace weft {
namespace {

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

/// Whether some path from the start of \p From reads \p Slot before writing
/// it, following only blocks that \p Follow accepts.
template <typename Pred>
bool readBeforeWritten(AllocaInst *Slot, BasicBlock *From, Pred Follow) {
  SmallVector<BasicBlock *, 16> Work = {From};
  SmallPtrSet<BasicBlock *, 16> Seen = {From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    bool Written = false;
    for (Instruction &I : *BB) {
      if (auto *L = dyn_cast<LoadInst>(&I); L && L->getPointerOperand() == Slot)
        return true;
      if (auto *S = dyn_cast<StoreInst>(&I); S && S->getPointerOperand() == Slot) {
        Written = true;
        break;
      }
    }
    if (Written)
      continue;
    for (BasicBlock *Succ : successors(BB))
      if (Follow(Succ) && Seen.insert(Succ).second)
        Work.push_back(Succ);
  }
  return false;
}

/// Outlines one parallel loop; see the file comment.
class LoopOutliner {
public:
  LoopOutliner(CallInst *Begin, FunctionCallee Runtime)
      : Begin(Begin), F(*Begin->getFunction()), M(*F.getParent()),
        Runtime(Runtime) {}

  void run();

private:
  bool prepare();
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
  Function *buildChunk(Function *Body, CallInst *Call);
  void fail(const Twine &Msg);
  void runSerially();
  void lowerCatches();

  CallInst *Begin;
  Function &F;
  Module &M;
  FunctionCallee Runtime;
  uint64_t Id = 0;
  CallInst *End = nullptr;
  BasicBlock *Entry = nullptr, *Exit = nullptr;
  SetVector<BasicBlock *> Blocks;
  CallInst *Lo = nullptr, *Hi = nullptr; // in the parent, before the loop
  SmallVector<std::pair<CallInst *, Function *>, 2> TypeIds;
  SmallVector<InvokeInst *, 2> Escaping; // unwind edges out of catch-alls
  SmallVector<AllocaInst *, 16> Locals;   // the region's own allocas
};

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
  LLVMContext &C = M.getContext();
  FunctionCallee Catch = M.getOrInsertFunction(
      PforCatchName, Type::getVoidTy(C), PointerType::getUnqual(C));
  if (auto *Decl = dyn_cast<Function>(Catch.getCallee()))
    Decl->setDoesNotThrow();
  for (CallInst *Call : Caught) {
    CallInst *Runtime =
        CallInst::Create(Catch, {Call->getArgOperand(0)}, "", Call);
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

/// Every block reachable from the loop's start without passing its end,
/// except through the unwind edge out of the loop's catch-all handler
/// (which terminateEscapingUnwinds closes). The handler of a loop nested
/// in this one unwinds into this one's: that edge stays in the region.
bool LoopOutliner::collectRegion() {
  auto IsHandler = [&](const BasicBlock &BB) {
    return any_of(BB, [&](const Instruction &I) {
      return isMarkerCall(I, PforCaughtName, Id);
    });
  };
  Blocks.insert(Entry);
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    BasicBlock *BB = Blocks[I];
    auto *Invoke = dyn_cast<InvokeInst>(BB->getTerminator());
    bool LeavesHandler = Invoke && IsHandler(*BB);
    if (LeavesHandler)
      Escaping.push_back(Invoke);
    for (BasicBlock *Succ : successors(BB))
      if (Succ != Exit && !(LeavesHandler && Succ == Invoke->getUnwindDest()))
        Blocks.insert(Succ);
  }
  if (Blocks.count(&F.getEntryBlock()) || Blocks.count(Begin->getParent())) {
    fail("its blocks reach the code before it");
    return false;
  }
  return true;
}

/// Gives the region its own copy of each block it shares with the rest of
/// the function. Only blocks that end the program or the thread
/// (`unreachable`, such as Clang's terminate handler) can be shared; they
/// have no successors, so the copy leaves nothing else to fix.
bool LoopOutliner::cloneSharedExits() {
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 2> Copies;
  for (BasicBlock *BB : Blocks) {
    if (BB == Entry || all_of(predecessors(BB), [&](BasicBlock *P) {
          return Blocks.count(P);
        }))
      continue;
    if (!isa<UnreachableInst>(BB->getTerminator()) ||
        isa<PHINode>(BB->front())) {
      fail("its body shares code with the rest of the function");
      return false;
    }
    ValueToValueMapTy VMap;
    BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".weft", &F);
    for (Instruction &I : *Copy)
      RemapInstruction(&I, VMap,
                       RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    SmallVector<BasicBlock *, 4> Preds(predecessors(BB));
    for (BasicBlock *P : Preds)
      if (Blocks.count(P))
        P->getTerminator()->replaceSuccessorWith(BB, Copy);
    Copies.push_back({BB, Copy});
  }
  for (auto [Shared, Copy] : Copies) {
    Blocks.remove(Shared);
    Blocks.insert(Copy);
  }
  return true;
}

/// Sends the unwind edges that leave the catch-alls (collectRegion) to a
/// landing pad in the region that terminates the program.
void LoopOutliner::terminateEscapingUnwinds() {
  if (Escaping.empty())
    return;
  LLVMContext &C = M.getContext();
  BasicBlock *Terminate = BasicBlock::Create(C, "weft.pfor.terminate", &F);
  IRBuilder<> B(Terminate);
  Type *Ptr = PointerType::getUnqual(C);
  LandingPadInst *Pad =
      B.CreateLandingPad(StructType::get(Ptr, Type::getInt32Ty(C)), 1);
  Pad->addClause(ConstantPointerNull::get(PointerType::getUnqual(C)));
  FunctionCallee Terminator =
      M.getOrInsertFunction("_ZSt9terminatev", Type::getVoidTy(C));
  if (auto *Decl = dyn_cast<Function>(Terminator.getCallee())) {
    Decl->setDoesNotReturn();
    Decl->setDoesNotThrow();
  }
  B.CreateCall(Terminator);
  B.CreateUnreachable();
  for (InvokeInst *Invoke : Escaping) {
    Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
    Invoke->setUnwindDest(Terminate);
  }
  Blocks.insert(Terminate);
  // The landing pads only those edges reached are dead now; they must not
  // look like a second way into an enclosing loop's region.
  EliminateUnreachableBlocks(F);
}

/// The region must leave only through its end: no return, no unwinding,
/// no value used after it.
bool LoopOutliner::checkRegion() {
  for (BasicBlock *BB : Blocks) {
    if (isa<ReturnInst, ResumeInst, CleanupReturnInst, CatchSwitchInst>(
            BB->getTerminator())) {
      fail("its body returns or unwinds out of the loop");
      return false;
    }
    for (Instruction &I : *BB)
      for (User *U : I.users())
        if (!Blocks.count(cast<Instruction>(U)->getParent())) {
          fail("a value computed in the loop is used after it");
          return false;
        }
  }
  return true;
}

/// Replaces the loop's bounds markers with one call of each before the
/// loop: the values become inputs of the outlined function, which then
/// takes them as its lo and hi.
bool LoopOutliner::hoistBounds() {
  SmallVector<CallInst *, 4> Los, His;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB) {
      if (isMarkerCall(I, PforLoName, Id))
        Los.push_back(cast<CallInst>(&I));
      else if (isMarkerCall(I, PforHiName, Id))
        His.push_back(cast<CallInst>(&I));
    }
  if (Los.empty() || His.empty()) {
    fail("the loop's bounds are missing");
    return false;
  }
  Instruction *Before = Begin->getParent()->getTerminator();
  Lo = cast<CallInst>(Los.front()->clone());
  Lo->insertBefore(Before);
  Hi = cast<CallInst>(His.front()->clone());
  Hi->insertBefore(Before);
  for (auto [Calls, Hoisted] : {std::pair(&Los, Lo), std::pair(&His, Hi)})
    for (CallInst *Call : *Calls) {
      Call->replaceAllUsesWith(Hoisted);
      Call->eraseFromParent();
    }
  return true;
}

void LoopOutliner::privatizeTemporaries() {
  auto InRegion = [&](BasicBlock *BB) { return Blocks.count(BB) != 0; };
  auto Anywhere = [](BasicBlock *) { return true; };
  SmallVector<AllocaInst *, 4> Private;
  for (Instruction &I : F.getEntryBlock()) {
    auto *Slot = dyn_cast<AllocaInst>(&I);
    if (!Slot)
      continue;
    bool Inside = false, Outside = false, Plain = true;
    for (User *U : Slot->users()) {
      auto *UI = dyn_cast<Instruction>(U);
      auto *L = dyn_cast_or_null<LoadInst>(UI);
      auto *S = dyn_cast_or_null<StoreInst>(UI);
      Plain &= (L && !L->isVolatile()) ||
               (S && !S->isVolatile() && S->getValueOperand() != Slot);
      if (UI)
        (InRegion(UI->getParent()) ? Inside : Outside) = true;
    }
    if (Plain && Inside && Outside &&
        !readBeforeWritten(Slot, Entry, InRegion) &&
        !readBeforeWritten(Slot, Exit, Anywhere))
      Private.push_back(Slot);
  }
  for (AllocaInst *Slot : Private) {
    auto *Copy = cast<AllocaInst>(Slot->clone());
    Copy->insertAfter(Slot);
    Copy->setName(Slot->getName() + ".weft.private");
    Slot->replaceUsesWithIf(Copy, [&](Use &U) {
      return InRegion(cast<Instruction>(U.getUser())->getParent());
    });
    ++NumPrivatized;
  }
}

/// Whether \p Slot is used only by plain loads and stores of it, and
/// lifetime markers: no other code can reach it.
static bool isUnescapedLocal(AllocaInst *Slot) {
  return all_of(Slot->users(), [&](User *U) {
    if (auto *L = dyn_cast<LoadInst>(U))
      return L->isSimple();
    if (auto *S = dyn_cast<StoreInst>(U))
      return S->isSimple() && S->getValueOperand() != Slot;
    auto *II = dyn_cast<IntrinsicInst>(U);
    return II && II->isLifetimeStartOrEnd();
  });
}

void LoopOutliner::passReadOnlyLocalsByValue() {
  Instruction *Before = Begin->getParent()->getTerminator();
  for (Instruction &I : F.getEntryBlock()) {
    auto *Slot = dyn_cast<AllocaInst>(&I);
    if (!Slot || !isUnescapedLocal(Slot))
      continue;
    SmallVector<LoadInst *, 4> Reads;
    bool Writes = false;
    for (User *U : Slot->users()) {
      auto *UI = cast<Instruction>(U);
      if (!Blocks.count(UI->getParent()))
        continue;
      auto *L = dyn_cast<LoadInst>(UI);
      if (L && L->getType() == Slot->getAllocatedType())
        Reads.push_back(L);
      else if (!isa<IntrinsicInst>(UI))
        Writes = true; // a store, or a load of another type
    }
    if (Writes || Reads.empty())
      continue;
    auto *Value = new LoadInst(Slot->getAllocatedType(), Slot,
                               Slot->getName() + ".weft.value", Before);
    for (LoadInst *L : Reads) {
      L->replaceAllUsesWith(Value);
      L->eraseFromParent();
    }
  }
}

/// Moves the parent's allocas that only the region uses to the region's
/// first block; buildChunk puts them in the new function's entry block.
void LoopOutliner::moveLocalsIntoRegion() {
  for (Instruction &I : F.getEntryBlock())
    if (auto *Slot = dyn_cast<AllocaInst>(&I);
        Slot && all_of(Slot->users(), [&](User *U) {
          auto *UI = dyn_cast<Instruction>(U);
          return UI && Blocks.count(UI->getParent());
        }))
      Locals.push_back(Slot);
  Instruction *Front = &*Entry->getFirstInsertionPt();
  for (AllocaInst *Slot : Locals)
    Slot->moveBefore(Front);
}

/// CodeExtractor refuses regions with llvm.eh.typeid.for (outlining it
/// apart from its landing pads miscompiles, llvm.org/PR39545). The region
/// holds the landing pads too, so the calls are hidden behind a
/// placeholder while it is extracted.
void LoopOutliner::hideTypeIds() {
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && II->getIntrinsicID() == Intrinsic::eh_typeid_for) {
        Function *Intrinsic = II->getCalledFunction();
        FunctionCallee Placeholder = M.getOrInsertFunction(
            "weft.typeid.for.placeholder", Intrinsic->getFunctionType());
        TypeIds.push_back({II, Intrinsic});
        II->setCalledFunction(Placeholder);
      }
}

void LoopOutliner::restoreTypeIds() {
  for (auto [Call, Intrinsic] : TypeIds)
    Call->setCalledFunction(Intrinsic);
  if (Function *P = M.getFunction("weft.typeid.for.placeholder");
      P && P->use_empty())
    P->eraseFromParent();
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
  Chunk->setAttributes(AttributeList::get(
      C, AttributeList::FunctionIndex,
      AttrBuilder(C, Body->getAttributes().getFnAttrs())));
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
  if (!Fields.empty()) {
    BasicBlock &ParentEntry = F.getEntryBlock();
    IRBuilder<> Alloc(&ParentEntry, ParentEntry.getFirstInsertionPt());
    Ctx = Alloc.CreateAlloca(CtxTy, nullptr, "weft.pfor.ctx");
    IRBuilder<> Fill(Call);
    for (unsigned I = 0; I != Captured.size(); ++I)
      Fill.CreateStore(Captured[I], Fill.CreateStructGEP(CtxTy, Ctx, I));
  }
  IRBuilder<> B(Call);
  CallInst *Run = B.CreateCall(
      Runtime, {Begin->getArgOperand(0), Begin->getArgOperand(1), Chunk, Ctx});
  Run->setDebugLoc(Call->getDebugLoc());
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

} // namespace

bool outlineParallelLoops(Module &M) {
  Function *Marker = M.getFunction(PforMarkerName);
  if (!Marker)
    return false;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  FunctionCallee Runtime = M.getOrInsertFunction(
      PforRuntimeName, Type::getVoidTy(C), I64, I64, Ptr, Ptr);
  // Iterations catch their own exceptions: nothing unwinds through it.
  if (auto *Decl = dyn_cast<Function>(Runtime.getCallee()))
    Decl->setDoesNotThrow();
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
    if (auto *Call = dyn_cast<CallInst>(U); Call && Call->getCalledFunction() == Marker)
      Loops.push_back(Call);
  for (WeakTrackingVH &Loop : Loops)
    if (auto *Call = dyn_cast_or_null<CallInst>(Loop))
      LoopOutliner(Call, Runtime).run();
  for (StringRef Name :
       {PforMarkerName, PforLoName, PforHiName, PforEndName, PforCaughtName})
    if (Function *Decl = M.getFunction(Name); Decl && Decl->use_empty())
      Decl->eraseFromParent();
  return true;
}

} // namespace weft
