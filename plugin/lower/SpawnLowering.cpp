//===- SpawnLowering.cpp - One spawning function into a pre-split coroutine -===//
//
// The frame, the steal points, the syncs and the returns. LowerSpawns.cpp
// has the strategy and the before/after sketch; SpawnWindow.cpp what runs
// after a spawned call returns; SpawnExceptions.cpp the unwinding paths.
//
//===----------------------------------------------------------------------===//

#include "lower/SpawnLowering.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"
#include "shared/RuntimeABI.h"
#include "shared/UnsupportedNames.h"
#include "shared/SourceErrors.h"
#include "analysis/WorkSpan.h"
#include "lower/Pedigrees.h"

#include "weft/frame_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "weft-lower-spawns"

using namespace llvm;

STATISTIC(NumSpawningFunctions, "Functions split into fast and slow clones");
STATISTIC(NumSpawns, "Spawned calls lowered");
STATISTIC(NumSyncs, "Explicit syncs lowered");

namespace weft {

RuntimeDecls::RuntimeDecls(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *Void = Type::getVoidTy(C);
  Type *Bool = Type::getInt1Ty(C);
  Push = getRuntimeFunction(M, RuntimeFn::Push);
  Pop = getRuntimeFunction(M, RuntimeFn::Pop);
  SpawnStolen = getRuntimeFunction(M, RuntimeFn::SpawnStolen);
  SyncSlow = getRuntimeFunction(M, RuntimeFn::SyncSlow);
  FrameComplete = getRuntimeFunction(M, RuntimeFn::FrameComplete);
  FrameAlloc = M.getOrInsertFunction(FrameAllocName, Ptr, Type::getInt64Ty(C),
                                     Type::getInt64Ty(C));
  FrameFree = M.getOrInsertFunction(FrameFreeName, Void, Ptr);
  IsStolen = M.getOrInsertFunction(IsStolenName, Bool, Ptr);
  if (auto *Decl = dyn_cast<Function>(IsStolen.getCallee())) {
    Decl->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref));
    Decl->setWillReturn();
    Decl->addParamAttr(0, compat::noCapture(C));
  }
  Catch = getRuntimeFunction(M, RuntimeFn::Catch);
  Rethrow = getRuntimeFunction(M, RuntimeFn::Rethrow);
  Hold = getRuntimeFunction(M, RuntimeFn::Hold);
  RethrowAfterSync = getRuntimeFunction(M, RuntimeFn::RethrowAfterSync);
  ArenaRelease = getRuntimeFunction(M, RuntimeFn::ArenaRelease);
  // Like the runtime's entries (nounwind in runtime_abi.def), the
  // placeholders must stay plain calls when the lowering turns a
  // function's may-throw calls into invokes.
  for (FunctionCallee Fn : {FrameAlloc, FrameFree, IsStolen})
    if (auto *Decl = dyn_cast<Function>(Fn.getCallee()))
      Decl->setDoesNotThrow();
  CoroId = compat::intrinsicDeclaration(&M, Intrinsic::coro_id);
  CoroSize = compat::intrinsicDeclaration(&M, Intrinsic::coro_size,
                                          {Type::getInt64Ty(C)});
  CoroAlign = compat::intrinsicDeclaration(&M, Intrinsic::coro_align,
                                           {Type::getInt64Ty(C)});
  CoroBegin = compat::intrinsicDeclaration(&M, Intrinsic::coro_begin);
  CoroSave = compat::intrinsicDeclaration(&M, Intrinsic::coro_save);
  CoroSuspend = compat::intrinsicDeclaration(&M, Intrinsic::coro_suspend);
  CoroEnd = compat::intrinsicDeclaration(&M, Intrinsic::coro_end);
}

void reportUnsupported(Function &F, const Twine &Msg, const Instruction *At) {
  // A spawned call knows its spawn's source location (SourceErrors.h); the
  // Clang plugin reports there, with or without debug info.
  unsigned RawLoc;
  const auto *Spawn = dyn_cast_or_null<CallBase>(At);
  if (SourceErrorHook &Hook = sourceErrorHook(); Spawn && Hook)
    if (!Spawn->getFnAttr(SpawnLocationAttr).getValueAsString().getAsInteger(
            10, RawLoc) &&
        Hook(RawLoc, Msg.str()))
      return;
  DebugLoc Loc = At ? At->getDebugLoc() : DebugLoc();
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, "weft: " + Msg, Loc, DS_Error));
}

void eraseSyncMarker(CallBase *Sync) {
  if (auto *Invoke = dyn_cast<InvokeInst>(Sync)) {
    BranchInst::Create(Invoke->getNormalDest(), Invoke->getIterator());
    Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
  }
  Sync->eraseFromParent();
}

/// Inline assembly that names the stack pointer as an operand or clobber,
/// or pushes and pops: it assumes one stack for the whole function.
static bool touchesStackPointer(const InlineAsm &Asm) {
  return constraintNamesStackPointer(Asm.getConstraintString()) ||
         asmTextTouchesStackPointer(Asm.getAsmString());
}

bool SpawnLowering::checkSupported() {
  if (F.isPresplitCoroutine()) {
    reportUnsupported(F,
                      "a C++ coroutine (co_await, co_yield, co_return) cannot "
                      "spawn: spawn from a function it calls",
                      nullptr);
    return false;
  }
  for (Instruction &I : instructions(F)) {
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (auto *Asm = dyn_cast<InlineAsm>(CB->getCalledOperand());
          Asm && touchesStackPointer(*Asm)) {
        reportUnsupported(F, StackPointerAsmMessage, CB);
        return false;
      }
      if (CB->isMustTailCall()) {
        reportUnsupported(F, "musttail calls cannot appear in a spawning function",
                          CB);
        return false;
      }
      if (Function *Callee = CB->getCalledFunction()) {
        StringRef Name = Callee->getName();
        if (isForbiddenCallee(Name)) {
          reportUnsupported(F, Name + ForbiddenCalleeMessage, CB);
          return false;
        }
      }
    }
    if (isa<IndirectBrInst>(&I)) {
      reportUnsupported(F, ComputedGotoMessage, &I);
      return false;
    }
  }
  if (F.isVarArg()) {
    reportUnsupported(F, "a variadic function cannot spawn", nullptr);
    return false;
  }
  return true;
}

Value *SpawnLowering::frameField(IRBuilder<> &B, unsigned Offset,
                                 const Twine &Name) {
  return B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Frame, Offset, Name);
}

Value *SpawnLowering::loadStolen(IRBuilder<> &B) {
  // Only the frame's current owner reads this flag, and a thief writes it
  // before it resumes the frame, so a plain load is enough.
  // A call until the stolen checks (finish/StolenChecks.cpp) make it a
  // load of the flag, or false in a fast clone. A load would lose any mark of what it reads
  // when LLVM merges it with another.
  return B.CreateCall(RT.IsStolen, {Frame}, "is.stolen");
}

/// The slow clone leaves F's result in the promise for the parked fast
/// clone to return. The promise is only WEFT_FRAME_PROMISE_ALIGN-aligned
/// (the runtime finds the handle at a fixed distance before it), so a
/// result type aligned more (a 32-byte vector, an alignas(64) struct
/// returned in registers) is kept as bytes at an offset that alignment
/// allows, and moved with loads and stores that assume no more.
void SpawnLowering::addResultField(const DataLayout &DL,
                                   SmallVectorImpl<Type *> &Fields) {
  Align Natural = DL.getABITypeAlign(RetTy);
  ResultField = Fields.size();
  ResultAlign = std::min(Natural, Align(WEFT_FRAME_PROMISE_ALIGN));
  if (Natural == ResultAlign) {
    Fields.push_back(RetTy);
    return;
  }
  Type *Byte = Type::getInt8Ty(F.getContext());
  uint64_t Pad = alignTo(WEFT_FRAME_SIZE, ResultAlign) - WEFT_FRAME_SIZE;
  if (Pad) {
    Fields.push_back(ArrayType::get(Byte, Pad));
    ++ResultField;
  }
  Fields.push_back(ArrayType::get(Byte, DL.getTypeAllocSize(RetTy)));
}

Value *SpawnLowering::loadResult(IRBuilder<> &B) {
  return B.CreateAlignedLoad(
      RetTy, B.CreateStructGEP(FrameTy, Frame, ResultField, "result.addr"),
      ResultAlign, "result");
}

void SpawnLowering::storeResult(IRBuilder<> &B, Value *Result) {
  B.CreateAlignedStore(
      Result, B.CreateStructGEP(FrameTy, Frame, ResultField, "result.addr"),
      ResultAlign);
}

void SpawnLowering::emitPrologue() {
  LLVMContext &C = F.getContext();
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());

  auto *HeaderTy = ArrayType::get(B.getInt64Ty(), WEFT_FRAME_SIZE / 8);
  SmallVector<Type *, 3> Fields = {HeaderTy};
  if (!RetTy->isVoidTy())
    addResultField(F.getDataLayout(), Fields);
  bool NeedsArena = hasDynamicAllocas();
  if (NeedsArena)
    Fields.push_back(B.getPtrTy());
  FrameTy = StructType::create(C, Fields, (F.getName() + ".weft.frame").str());
  Frame = B.CreateAlloca(FrameTy, nullptr, "weft.frame");
  // The runtime finds the coroutine handle at a fixed distance before its
  // promise, which depends on the promise's alignment (frame_abi.h).
  Frame->setAlignment(Align(WEFT_FRAME_PROMISE_ALIGN));

  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  static_assert(FrameMemoryAlign >= WEFT_FRAME_PROMISE_ALIGN);
  Value *Id =
      B.CreateCall(RT.CoroId, {B.getInt32(FrameMemoryAlign), Frame, Null, Null},
                   "weft.id");
  // The coroutine frame belongs in the fast clone's stack frame (see
  // LowerSpawns.cpp), but its size and alignment are only known after
  // coro-split, and the frame builder rejects dynamic allocas; FrameToStack
  // turns this call into an alloca once both are constants. The frame
  // builder lays out the values it keeps (a __m256 live across a spawn, an
  // alignas(64) local) for memory aligned to coro.align, which can exceed
  // FrameMemoryAlign.
  Value *Size = B.CreateCall(RT.CoroSize, {}, "weft.size");
  Value *Alignment = B.CreateCall(RT.CoroAlign, {}, "weft.align");
  Mem = B.CreateCall(RT.FrameAlloc, {Size, Alignment}, "weft.mem");
  Handle = B.CreateCall(RT.CoroBegin, {Id, Mem}, "weft.hdl");

  // Fresh frame: no steals, no children, not parked, no exception.
  for (unsigned Off = WEFT_FRAME_JOIN_OFFSET; Off < WEFT_FRAME_SIZE; Off += 8)
    B.CreateStore(B.getInt64(0), frameField(B, Off, "hdr.word"));
  if (NeedsArena) {
    ArenaSlot = B.CreateStructGEP(FrameTy, Frame, Fields.size() - 1,
                                  "weft.arena");
    B.CreateStore(Null, ArenaSlot);
  }
}

/// The function's single exit. CoroSplit allows one fall-through coro.end,
/// so every return path meets here: the fast clone's normal return (with
/// its value), the slow clone's completion, and every suspend. In the slow
/// clone coro.end becomes `ret void`: the slow clone returns to the
/// scheduler. Only the fast clone gets past it; coming from a suspend, its
/// parked stack was resumed after the slow clone stored the result.
BasicBlock *SpawnLowering::getExit() {
  if (Exit)
    return Exit;
  LLVMContext &C = F.getContext();
  Exit = BasicBlock::Create(C, "weft.exit", &F);
  BasicBlock *FromFrame = BasicBlock::Create(C, "weft.exit.result", &F);
  BasicBlock *Direct = BasicBlock::Create(C, "weft.exit.direct", &F);
  IRBuilder<> B(Exit);
  ExitWasSuspended = B.CreatePHI(B.getInt1Ty(), 4, "weft.suspended");
  if (!RetTy->isVoidTy())
    ExitValue = B.CreatePHI(RetTy, 4, "weft.retval");
  if (Pedigrees)
    ExitPedigree = B.CreatePHI(B.getPtrTy(), 4, "weft.pedigree.exit");
  B.CreateCall(RT.CoroEnd, {Handle, B.getFalse(), ConstantTokenNone::get(C)});
  B.CreateCondBr(ExitWasSuspended, FromFrame, Direct);

  B.SetInsertPoint(Direct);
  B.CreateCall(RT.FrameFree, {Mem});
  if (ExitValue)
    B.CreateRet(ExitValue);
  else
    B.CreateRetVoid();

  B.SetInsertPoint(FromFrame);
  // Only a parked fast clone comes here, resumed when its slow clone
  // completed: perhaps by its own thread (a native stack), which has run
  // other strands meanwhile.
  if (Pedigrees)
    Pedigrees->resume(B, ExitPedigree);
  if (Unwinds)
    rethrowAfterPark(B);
  Value *Result = nullptr;
  if (ExitValue)
    Result = loadResult(B);
  B.CreateCall(RT.FrameFree, {Mem});
  if (Result)
    B.CreateRet(Result);
  else
    B.CreateRetVoid();
  return Exit;
}

void SpawnLowering::branchToExit(IRBuilder<> &B, bool Suspended, Value *V) {
  BasicBlock *Target = getExit();
  BasicBlock *From = B.GetInsertBlock();
  ExitWasSuspended->addIncoming(B.getInt1(Suspended), From);
  // The direct returns need no frame: where they come from, a call that
  // spawned nothing may not have taken one (Pedigrees.h, sinkEnter).
  if (ExitPedigree)
    ExitPedigree->addIncoming(
        Suspended ? Pedigrees->frame() : PoisonValue::get(B.getPtrTy()),
        From);
  if (ExitValue)
    ExitValue->addIncoming(V ? V : PoisonValue::get(RetTy), From);
  B.CreateBr(Target);
}

void SpawnLowering::addSuspend(BasicBlock *From, Value *Save,
                               BasicBlock *Resume) {
  LLVMContext &C = F.getContext();
  BasicBlock *Suspended =
      BasicBlock::Create(C, "weft.suspended", &F, From->getNextNode());
  IRBuilder<> B(From);
  Value *S = B.CreateCall(RT.CoroSuspend, {Save, B.getFalse()}, "weft.susp");
  SwitchInst *Sw = B.CreateSwitch(S, Suspended, 1);
  if (Pedigrees) {
    // The strand may resume on another thread.
    BasicBlock *Resumed = BasicBlock::Create(C, "weft.resumed", &F, Resume);
    Resume->replacePhiUsesWith(From, Resumed);
    IRBuilder<> R(BranchInst::Create(Resume, Resumed));
    Pedigrees->resume(R);
    Resume = Resumed;
  }
  Sw->addCase(B.getInt8(0), Resume);
  B.SetInsertPoint(Suspended);
  branchToExit(B, /*Suspended=*/true, nullptr);
}


void SpawnLowering::lowerSpawn(CallBase *Call) {
  ++NumSpawns;
  auto *Invoke = dyn_cast<InvokeInst>(Call);
  if (Invoke && !Invoke->getNormalDest()->getSinglePredecessor())
    SplitEdge(Invoke->getParent(), Invoke->getNormalDest());
  Call = sinkToConsumers(Call);
  Invoke = dyn_cast<InvokeInst>(Call);
  Instruction *First = firstAfterReturn(Call);
  SmallVector<Instruction *, 8> Window;
  if (!checkArgumentsSupported(Call))
    return;
  Instruction *WindowEnd = collectSpawnWindow(Call, First, Window);
  if (WindowEnd && temporariesOutliveWindow(Call, WindowEnd)) {
    reportUnsupported(F,
                      "this spawned statement destroys an argument's "
                      "temporary in code the spawn cannot cover (the array "
                      "of a std::initializer_list, or a class built by a "
                      "conditional expression); build the argument in a "
                      "variable before the spawn",
                      Call);
    return;
  }
  if (WindowEnd)
    WindowEnd = privatizeArguments(Call, Window, WindowEnd);
  noteStatementTemporaries(Window);
  SmallVector<Instruction *, 4> UnwindCleanups;
  if (Invoke && WindowEnd)
    UnwindCleanups = copyCleanups(Window);
  escapeDestinations(Window);
  if (!WindowEnd) {
    reportUnsupported(F, whyNoWindow(Call, First), Call);
    WindowEnd = Call;
  } else if (windowNeedsHelper(Window)) {
    Call = outlineWindow(Window); // SpawnHelper.cpp
    Invoke = dyn_cast<InvokeInst>(Call);
    WindowEnd = Window.back();
    First = firstAfterReturn(Call);
  }
  // The child's pedigree frame, for as long as the call runs; the parent's
  // frame is the thread's again before anything after the call.
  if (Pedigrees)
    StatementTemporaries.insert(Pedigrees->spawn(Call, First));
  // The spawned call must stay one call. coro-split reloads a value that
  // lives across a suspend at the start of each block that uses it; the
  // call's block starts before the push, where the frame is still private,
  // but the blocks of an inlined callee would start after it, where a thief
  // may already be advancing the frame (a loop index, say).
  Call->addFnAttr(Attribute::NoInline);
  IRBuilder<> B(Call);
  Value *Save = B.CreateCall(RT.CoroSave, {Handle}, "weft.save");
  // The push's mark goes to the pop that undoes it (Deque::pop_owned).
  Value *Mark = B.CreateCall(RT.Push, {Frame}, "weft.mark");
  // After the push, which publishes the frame: the optimizer may sink the
  // parent's stores to the frame down to it, and no further, and they must
  // come before the child's start to be the parent's.
  if (WorkSpan)
    WorkSpan->spawn(Call);

  Instruction *PopBefore = WindowEnd == Call ? First : WindowEnd->getNextNode();
  BasicBlock *Head = PopBefore->getParent();
  BasicBlock *Cont = Head->splitBasicBlock(PopBefore, "weft.spawn.cont");
  Head->getTerminator()->eraseFromParent();
  BasicBlock *Stolen =
      BasicBlock::Create(F.getContext(), "weft.spawn.stolen", &F, Cont);
  B.SetInsertPoint(Head);
  Value *Owned = B.CreateCall(RT.Pop, {Mark}, "weft.owned");
  B.CreateCondBr(Owned, Cont, Stolen);
  if (WorkSpan)
    WorkSpan->continuation(Cont);

  B.SetInsertPoint(Stolen);
  B.CreateCall(RT.SpawnStolen, {Frame});
  addSuspend(Stolen, Save, Cont);
  if (Invoke)
    lowerSpawnUnwind(Invoke, Mark, Stolen, UnwindCleanups);
}

/// A sync: free in the fast clone; in the slow clone it waits for the
/// stolen children and, when \p RethrowPending, rethrows an exception one of
/// them left in the frame.
void SpawnLowering::lowerSync(SyncPoint Sync, bool RethrowPending) {
  BasicBlock *Head = Sync.Before->getParent();
  BasicBlock *Done = Head->splitBasicBlock(Sync.Before, "weft.sync.done");
  Head->getTerminator()->eraseFromParent();
  LLVMContext &C = F.getContext();
  BasicBlock *Slow = BasicBlock::Create(C, "weft.sync.slow", &F, Done);
  BasicBlock *Wait = BasicBlock::Create(C, "weft.sync.wait", &F, Done);
  BasicBlock *SlowDone = Done;
  if (Unwinds && RethrowPending)
    SlowDone = emitPendingCheck(Done, Sync.UnwindTo);

  // A fast clone at a sync was never stolen (a steal makes its next pop fail
  // and it parks), so the sync costs one load and a branch.
  IRBuilder<> B(Head);
  B.CreateCondBr(loadStolen(B), Slow, Done);

  B.SetInsertPoint(Slow);
  Value *Save = B.CreateCall(RT.CoroSave, {Handle}, "weft.save");
  Value *MustWait = B.CreateCall(RT.SyncSlow, {Frame}, "weft.wait");
  B.CreateCondBr(MustWait, Wait, SlowDone);
  addSuspend(Wait, Save, SlowDone);
}

void SpawnLowering::lowerReturn(ReturnInst *Ret) {
  // The analysis's exit does its own implicit sync.
  if (WorkSpan)
    WorkSpan->exit(Ret);
  // Every function syncs before it returns, unless no child can be
  // outstanding there (IdleSyncs.cpp). A return that ends an exception's
  // escape from the slow clone (SpawnExceptions.cpp) must not rethrow at
  // this sync: the exception is already in the frame.
  if (!IdleSyncs.contains(Ret)) {
    lowerSync({Ret, nullptr}, /*RethrowPending=*/Ret != EscapeReturn);
    // The implicit sync counts where a child may be outstanding, after it,
    // on both clones' paths; not on the exception's escape from the slow
    // clone, which no serial run takes.
    if (Pedigrees && Ret != EscapeReturn)
      Pedigrees->sync(Ret);
  }
  BasicBlock *Head = Ret->getParent();
  Value *Result = Ret->getReturnValue();
  LLVMContext &C = F.getContext();
  BasicBlock *Fast = BasicBlock::Create(C, "weft.finish.fast", &F);
  BasicBlock *Slow = BasicBlock::Create(C, "weft.finish.slow", &F);
  Ret->eraseFromParent();

  IRBuilder<> B(Head);
  B.CreateCondBr(loadStolen(B), Slow, Fast);

  B.SetInsertPoint(Fast);
  branchToExit(B, /*Suspended=*/false, Result);

  B.SetInsertPoint(Slow);
  if (Result && !isa<PoisonValue>(Result))
    storeResult(B, Result);
  // The slow clone's dynamic allocas die with the function. After
  // FrameComplete the parked fast clone may run and reuse the frame: the
  // slow clone must not touch it again, and the exit's coro.end returns.
  if (ArenaSlot)
    B.CreateCall(RT.ArenaRelease, {ArenaSlot});
  B.CreateCall(RT.FrameComplete, {Frame});
  branchToExit(B, /*Suspended=*/false, nullptr);
}

bool SpawnLowering::run(ArrayRef<CallBase *> SpawnList,
                        ArrayRef<CallBase *> SyncList) {
  if (!checkSupported())
    return false;
  RetTy = F.getReturnType();
  Instruction *Body = &*F.getEntryBlock().getFirstNonPHIOrDbgOrAlloca();
  emitPrologue();
  if (WorkSpan)
    WorkSpan->enter(Body);
  if (Pedigrees)
    Pedigrees->enter(Body);
  if (ArenaSlot)
    hideDynamicAllocas();

  // Unwinding first: it turns may-throw calls (spawned ones too) into
  // invokes, so track the spawns and syncs through the replacement.
  SmallVector<WeakTrackingVH, 8> Spawns(SpawnList.begin(), SpawnList.end());
  SmallVector<WeakTrackingVH, 8> Syncs(SyncList.begin(), SyncList.end());
  prepareUnwinding();
  for (WeakTrackingVH &Spawn : Spawns)
    SpawnSet.insert(cast<CallBase>(Spawn));

  // Before anything adds the exit's returns.
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(R);

  // On the marks as they are: the lowering below adds blocks, syncs of its
  // own and returns.
  SmallVector<CallBase *, 8> SyncMarks;
  for (WeakTrackingVH &Sync : Syncs)
    SyncMarks.push_back(cast<CallBase>(Sync));
  IdleSyncs = findIdleSyncs(F, SpawnSet, SyncMarks, Returns);

  for (WeakTrackingVH &Spawn : Spawns)
    lowerSpawn(cast<CallBase>(Spawn));
  // Once the spawns' windows have told which allocas are statement
  // temporaries: the landing pads wait after destroying them.
  syncLandingPads();
  for (WeakTrackingVH &SyncVH : Syncs) {
    ++NumSyncs;
    auto *Sync = cast<CallBase>(SyncVH);
    auto *Invoke = dyn_cast<InvokeInst>(Sync);
    if (WorkSpan)
      WorkSpan->sync(Sync);
    if (!IdleSyncs.contains(Sync)) {
      lowerSync({Sync, Invoke ? Invoke->getUnwindDest() : nullptr},
                /*RethrowPending=*/true);
      // A sync that may wait counts, where it has completed, on both
      // clones' paths: not where a stolen child's exception is rethrown
      // instead. One that follows no spawn (the front end's before a
      // return after a cilk_sync, a second cilk_sync) does not.
      if (Pedigrees)
        Pedigrees->sync(Sync);
    }
    eraseSyncMarker(Sync);
  }
  for (ReturnInst *Ret : Returns)
    lowerReturn(Ret);
  // A landing pad may take an exception that a child threw on its frame,
  // or one rethrown after a sync that resumed on another thread.
  if (Pedigrees) {
    Pedigrees->resumeInLandingPads(F);
    Pedigrees->sinkEnter();
  }

  privatizeStatementTemporaries();
  F.addFnAttr(Attribute::PresplitCoroutine);
  F.addFnAttr(SpawningFunctionAttr);
  ++NumSpawningFunctions;
  return true;
}

} // namespace weft
