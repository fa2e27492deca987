//===- SpawnLowering.cpp - One spawning function into a pre-split coroutine -===//
//
// The frame, the steal points, the syncs and the returns. LowerSpawns.cpp
// has the strategy and the before/after sketch; SpawnExceptions.cpp the
// unwinding paths.
//
//===----------------------------------------------------------------------===//

#include "SpawnLowering.h"
#include "LowerSpawns.h"
#include "UnsupportedNames.h"
#include "SourceErrors.h"
#include "WorkSpan.h"

#include "weft/frame_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
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
  Push = M.getOrInsertFunction("__weft_push", Void, Ptr);
  Pop = M.getOrInsertFunction("__weft_pop", Bool);
  SpawnStolen = M.getOrInsertFunction("__weft_spawn_stolen", Void, Ptr);
  SyncSlow = M.getOrInsertFunction("__weft_sync_slow", Bool, Ptr);
  FrameComplete = M.getOrInsertFunction("__weft_frame_complete", Void, Ptr);
  FrameAlloc = M.getOrInsertFunction(FrameAllocName, Ptr, Type::getInt64Ty(C));
  FrameFree = M.getOrInsertFunction(FrameFreeName, Void, Ptr);
  IsStolen = M.getOrInsertFunction(IsStolenName, Bool, Ptr);
  if (auto *Decl = dyn_cast<Function>(IsStolen.getCallee())) {
    Decl->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref));
    Decl->setWillReturn();
    Decl->addParamAttr(0, Attribute::NoCapture);
  }
  Catch = M.getOrInsertFunction("__weft_catch", Void, Ptr, Ptr);
  Rethrow = M.getOrInsertFunction("__weft_rethrow", Void, Ptr);
  Hold = M.getOrInsertFunction("__weft_hold", Ptr, Ptr);
  RethrowAfterSync =
      M.getOrInsertFunction("__weft_rethrow_after_sync", Void, Ptr, Ptr);
  ArenaRelease = M.getOrInsertFunction("__weft_arena_release", Void, Ptr);
  // Only __weft_rethrow unwinds; the others must stay plain calls when the
  // lowering turns a function's may-throw calls into invokes.
  for (FunctionCallee Fn : {Push, Pop, SpawnStolen, SyncSlow, FrameComplete,
                            FrameAlloc, FrameFree, IsStolen, Catch, Hold,
                            ArenaRelease})
    if (auto *Decl = dyn_cast<Function>(Fn.getCallee()))
      Decl->setDoesNotThrow();
  for (FunctionCallee Fn : {Rethrow, RethrowAfterSync})
    if (auto *Decl = dyn_cast<Function>(Fn.getCallee()))
      Decl->setDoesNotReturn();
  for (FunctionCallee Fn : {Pop, SyncSlow})
    if (auto *Decl = dyn_cast<Function>(Fn.getCallee()))
      Decl->addRetAttr(Attribute::ZExt);
  CoroId = Intrinsic::getDeclaration(&M, Intrinsic::coro_id);
  CoroSize = Intrinsic::getDeclaration(&M, Intrinsic::coro_size,
                                       {Type::getInt64Ty(C)});
  CoroBegin = Intrinsic::getDeclaration(&M, Intrinsic::coro_begin);
  CoroSave = Intrinsic::getDeclaration(&M, Intrinsic::coro_save);
  CoroSuspend = Intrinsic::getDeclaration(&M, Intrinsic::coro_suspend);
  CoroEnd = Intrinsic::getDeclaration(&M, Intrinsic::coro_end);
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
    BranchInst::Create(Invoke->getNormalDest(), Invoke);
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
  // A call until FrameToStack, which makes it a load of the flag, or
  // false in a fast clone. A load would lose any mark of what it reads
  // when LLVM merges it with another.
  return B.CreateCall(RT.IsStolen, {Frame}, "is.stolen");
}

void SpawnLowering::emitPrologue() {
  LLVMContext &C = F.getContext();
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());

  auto *HeaderTy = ArrayType::get(B.getInt64Ty(), WEFT_FRAME_SIZE / 8);
  SmallVector<Type *, 2> Fields = {HeaderTy};
  if (!RetTy->isVoidTy())
    Fields.push_back(RetTy);
  bool NeedsArena = hasDynamicAllocas();
  if (NeedsArena)
    Fields.push_back(B.getPtrTy());
  FrameTy = StructType::create(C, Fields, (F.getName() + ".weft.frame").str());
  Frame = B.CreateAlloca(FrameTy, nullptr, "weft.frame");
  // The runtime finds the coroutine handle at a fixed distance before its
  // promise, which depends on the promise's alignment (frame_abi.h).
  Frame->setAlignment(Align(WEFT_FRAME_PROMISE_ALIGN));

  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  Value *Id = B.CreateCall(RT.CoroId, {B.getInt32(16), Frame, Null, Null},
                           "weft.id");
  Value *Size = B.CreateCall(RT.CoroSize, {}, "weft.size");
  // The coroutine frame belongs in the fast clone's stack frame (see
  // LowerSpawns.cpp), but its size is only known after coro-split, and the
  // frame builder rejects dynamic allocas; FrameToStack turns this call
  // into an alloca once the size is a constant.
  Mem = B.CreateCall(RT.FrameAlloc, {Size}, "weft.mem");
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
  B.CreateCall(RT.CoroEnd, {Handle, B.getFalse(), ConstantTokenNone::get(C)});
  B.CreateCondBr(ExitWasSuspended, FromFrame, Direct);

  B.SetInsertPoint(Direct);
  B.CreateCall(RT.FrameFree, {Mem});
  if (ExitValue)
    B.CreateRet(ExitValue);
  else
    B.CreateRetVoid();

  B.SetInsertPoint(FromFrame);
  if (Unwinds)
    rethrowAfterPark(B);
  Value *Result = nullptr;
  if (ExitValue)
    Result = B.CreateLoad(
        RetTy, B.CreateStructGEP(FrameTy, Frame, 1, "result.addr"), "result");
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
  Sw->addCase(B.getInt8(0), Resume);
  B.SetInsertPoint(Suspended);
  branchToExit(B, /*Suspended=*/true, nullptr);
}

/// Whether \p I ends the scan for a spawn's window: the statement's end
/// marker, any other mark or runtime call, or another spawned call.
bool SpawnLowering::endsWindowScan(const Instruction &I) const {
  if (I.isTerminator())
    return true;
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  if (SpawnSet.count(CB))
    return true;
  const Function *Callee = CB->getCalledFunction();
  return Callee && (Callee->getName().starts_with("__weft_") ||
                    Callee->getIntrinsicID() == Intrinsic::coro_save ||
                    Callee->getIntrinsicID() == Intrinsic::coro_suspend);
}

static bool isSpawnEnd(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == SpawnEndMarkerName;
}

/// Returns the last instruction of the spawn's window: what the victim runs
/// after the child returns and before it pops, scanning from \p First (after
/// the call, or at the start of an invoke's normal destination). That is
/// the rest of the spawning statement, up to the front end's end marker:
/// the instructions computing on the result (conversions, extractvalue, a
/// load through a returned reference),
/// its stores, copies out of a temporary the window filled (a struct
/// assigned through a temporary), and the destruction of the statement's
/// temporaries, which the call may still be using. OpenCilk runs all of it
/// in the child too.
///
/// Every store and copy of the result becomes volatile: a result may be
/// read only after the sync, and only through memory; if SROA promoted the
/// destination, the value would flow as SSA to a phi before the sync, and
/// coro-split would reload it at the resume point, where the thief runs
/// while the child is still computing it.
///
/// What evaluates a destination (`a[i++] = spawn f()` loads `a` and `i`
/// and increments `i` after the call) is hoisted above the call: the
/// destination is evaluated in the parent before the spawn. Returns null if
/// the result is used in any other way.
///
/// Without an end marker (the statement spans blocks), the window stops at
/// the last store or copy of the result; what follows is the continuation.
Instruction *SpawnLowering::collectSpawnWindow(
    CallBase *Call, Instruction *First, SmallVectorImpl<Instruction *> &Window) {
  Window.push_back(Call);
  SmallVector<Instruction *, 16> Statement;
  bool Bounded = false;
  for (Instruction *I = First; !(Bounded = isSpawnEnd(*I)); I = I->getNextNode()) {
    if (endsWindowScan(*I))
      break;
    Statement.push_back(I);
  }

  // What consumes the result.
  SmallPtrSet<Value *, 8> Values = {Call}; // SSA values computed from it
  SmallPtrSet<Value *, 4> Filled;          // objects holding it
  SmallPtrSet<Instruction *, 8> Consumers;
  if (Call->arg_size() && Call->paramHasAttr(0, Attribute::StructRet))
    Filled.insert(getUnderlyingObject(Call->getArgOperand(0)));
  for (Instruction *I : Statement) {
    bool ReadsResult =
        any_of(I->operands(), [&](Value *Op) { return Values.count(Op); });
    if (auto *Copy = dyn_cast<MemTransferInst>(I);
        Copy && Filled.count(getUnderlyingObject(Copy->getSource()))) {
      Copy->setVolatile(ConstantInt::getTrue(F.getContext()));
      Filled.insert(getUnderlyingObject(Copy->getDest()));
    } else if (auto *SI = dyn_cast<StoreInst>(I);
               SI && Values.count(SI->getValueOperand())) {
      SI->setVolatile(true);
      Filled.insert(getUnderlyingObject(SI->getPointerOperand()));
    } else if (ReadsResult && !I->mayHaveSideEffects()) {
      Values.insert(I); // also a load through a returned reference
    } else if (ReadsResult) {
      return nullptr; // passed on: `g(spawn f())`
    } else {
      continue;
    }
    Consumers.insert(I);
  }

  // The destinations: Clang evaluates the left side of `dst = f()` after
  // the call and before the first store (`*p++ = f()` advances p there),
  // and each store's address may be computed just before it. What comes
  // before the first store may also be cleanups, when the spawn initialises
  // a variable (destructor calls, lifetime ends); those stay.
  SmallPtrSet<Instruction *, 8> Hoisted;
  SmallVector<Instruction *, 8> Work(Consumers.begin(), Consumers.end());
  for (Instruction *I : Statement) {
    if (Consumers.empty() || Consumers.count(I))
      break;
    if (!isa<CallBase>(I))
      Work.push_back(I), Hoisted.insert(I);
  }
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (Value *Op : I->operands()) {
      auto *OpI = dyn_cast<Instruction>(Op);
      if (!OpI || !is_contained(Statement, OpI) || Hoisted.count(OpI))
        continue;
      if (Consumers.count(OpI)) {
        if (Hoisted.count(I))
          return nullptr; // a destination computed from the result
        continue;
      }
      Hoisted.insert(OpI);
      Work.push_back(OpI);
    }
  }

  Instruction *LastConsumer = nullptr;
  for (Instruction *I : Statement)
    if (Consumers.count(I))
      LastConsumer = I;
  Instruction *End = Call;
  for (Instruction *I : Statement) {
    if (Hoisted.count(I)) {
      I->moveBefore(Call);
      continue;
    }
    if (!Bounded && (!LastConsumer || LastConsumer->comesBefore(I)))
      break; // a destination's address comes before its store
    Window.push_back(I);
    End = I;
  }
  // The result must not be used except inside the window.
  for (Value *V : Values)
    for (User *U : V->users())
      if (!is_contained(Window, U))
        return nullptr;
  return End;
}

/// The error for a spawn whose result is used other than by stores.
static const char *whyNoWindow(CallBase *Call, Instruction *First) {
  Instruction *Last = First->getParent()->getTerminator();
  bool UsedBeyond = any_of(Call->users(), [&](User *U) {
    return cast<Instruction>(U)->getParent() != First->getParent();
  });
  if (isa<InvokeInst>(Last) && UsedBeyond)
    return "the destination of a spawned call's result is computed by a "
           "call that may throw; compute it before the spawn "
           "('long i = idx(k); a[i] = cilk_spawn f();')";
  return "the result of a spawned call must be stored directly into a "
         "variable or an lvalue";
}

/// Lets every alloca the window writes escape, through an empty inline asm
/// in the entry block. Otherwise, once the callee's sret or pointer
/// parameter is inferred nocapture, the alloca counts as local: LLVM may then
/// hoist its loads from after a sync to before it, across the slow path's
/// runtime calls, and a thief would read it while the child still writes it.
/// An escaped alloca may be written by any unknown call, so the sync's
/// runtime calls and suspend order those loads. The asm emits nothing.
void SpawnLowering::escapeDestinations(ArrayRef<Instruction *> Window) {
  SmallPtrSet<Value *, 4> Objects;
  auto *Spawned = cast<CallBase>(Window.front());
  for (Value *Arg : Spawned->args())
    if (Arg->getType()->isPointerTy())
      Objects.insert(getUnderlyingObject(Arg));
  for (Instruction *I : Window.drop_front()) {
    if (auto *SI = dyn_cast<StoreInst>(I); SI && SI->isVolatile())
      Objects.insert(getUnderlyingObject(SI->getPointerOperand()));
    else if (auto *Copy = dyn_cast<MemTransferInst>(I); Copy && Copy->isVolatile())
      Objects.insert(getUnderlyingObject(Copy->getDest()));
  }
  for (Value *Object : Objects) {
    auto *Alloca = dyn_cast<AllocaInst>(Object);
    if (!Alloca || Alloca->getParent() != &F.getEntryBlock() ||
        StatementTemporaries.count(Alloca))
      continue;
    IRBuilder<> B(Alloca->getNextNode());
    auto *Escape = InlineAsm::get(
        FunctionType::get(B.getVoidTy(), {Alloca->getType()}, false), "",
        "r,~{memory}", /*hasSideEffects=*/true);
    B.CreateCall(Escape, {Alloca});
  }
}

/// When the statement's destination is evaluated through control flow
/// (UBSan's checks around `out[i]`, a may-throw call computing the index),
/// the result's stores sit in a later block than the call. Evaluating the
/// destination before the spawn, as everywhere else, then means moving the
/// spawned call down to just before its first use, where the window can
/// follow it in one block; an invoke keeps its unwind destination. Only if
/// every use of the result (or of its sret slot) is in that block, which the
/// call's block dominates. Returns the call, moved or not.
CallBase *SpawnLowering::sinkToConsumers(CallBase *Call) {
  BasicBlock *Home = Call->getParent();
  Value *Sret = Call->arg_size() && Call->paramHasAttr(0, Attribute::StructRet)
                    ? getUnderlyingObject(Call->getArgOperand(0))
                    : nullptr;
  SmallVector<Instruction *, 4> Uses;
  for (User *U : Call->users())
    Uses.push_back(cast<Instruction>(U));
  if (Sret)
    for (User *U : Sret->users())
      if (auto *Copy = dyn_cast<MemTransferInst>(U);
          Copy && getUnderlyingObject(Copy->getSource()) == Sret)
        Uses.push_back(Copy);
  if (Uses.empty())
    return Call;
  BasicBlock *Target = Uses.front()->getParent();
  auto *Invoke = dyn_cast<InvokeInst>(Call);
  BasicBlock *Next = Invoke ? Invoke->getNormalDest() : Home;
  if (Target == Next || isa<PHINode>(Uses.front()) ||
      any_of(Uses, [&](Instruction *I) { return I->getParent() != Target; }))
    return Call;
  DominatorTree DT(*Home->getParent());
  if (!DT.dominates(Next, Target) ||
      any_of(Call->operands(), [&](Value *Op) {
        auto *OpI = dyn_cast<Instruction>(Op);
        return OpI && OpI != Call && !DT.dominates(OpI, Target);
      }))
    return Call;
  Instruction *First = Uses.front();
  for (Instruction *I : Uses)
    if (I->comesBefore(First))
      First = I;
  // The uses must be this statement's: its end follows them, with no other
  // mark, runtime call or spawn in between (a copy of the result after the
  // sync is not one).
  Instruction *I = First;
  while (!isSpawnEnd(*I) && !endsWindowScan(*I))
    I = I->getNextNode();
  if (!isSpawnEnd(*I))
    return Call;
  if (!Invoke) {
    Call->moveBefore(First);
    return Call;
  }
  // invoke @f to %next unwind %pad   ==>   br %next
  // ... %target: invoke @f to %target.split unwind %pad; %target.split: uses
  BasicBlock *Rest = SplitBlock(Target, First);
  BasicBlock *Pad = Invoke->getUnwindDest();
  Target->getTerminator()->eraseFromParent();
  Invoke->removeFromParent();
  Invoke->insertInto(Target, Target->end());
  Invoke->setNormalDest(Rest);
  BranchInst::Create(Next, Home);
  for (PHINode &Phi : Pad->phis())
    Phi.setIncomingBlock(Phi.getBasicBlockIndex(Home), Target);
  return Invoke;
}

/// Where the parent continues once the call returns normally: after a call,
/// or at the start of an invoke's normal destination.
static Instruction *firstAfterReturn(CallBase *Call) {
  if (auto *Invoke = dyn_cast<InvokeInst>(Call))
    return &*Invoke->getNormalDest()->getFirstInsertionPt();
  return Call->getNextNode();
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
  // The spawned call must stay one call. coro-split reloads a value that
  // lives across a suspend at the start of each block that uses it; the
  // call's block starts before the push, where the frame is still private,
  // but the blocks of an inlined callee would start after it, where a thief
  // may already be advancing the frame (a loop index, say).
  Call->addFnAttr(Attribute::NoInline);
  if (WorkSpan)
    WorkSpan->spawn(Call);
  IRBuilder<> B(Call);
  Value *Save = B.CreateCall(RT.CoroSave, {Handle}, "weft.save");
  B.CreateCall(RT.Push, {Frame});

  Instruction *PopBefore = WindowEnd == Call ? First : WindowEnd->getNextNode();
  BasicBlock *Head = PopBefore->getParent();
  BasicBlock *Cont = Head->splitBasicBlock(PopBefore, "weft.spawn.cont");
  Head->getTerminator()->eraseFromParent();
  BasicBlock *Stolen =
      BasicBlock::Create(F.getContext(), "weft.spawn.stolen", &F, Cont);
  B.SetInsertPoint(Head);
  Value *Owned = B.CreateCall(RT.Pop, {}, "weft.owned");
  B.CreateCondBr(Owned, Cont, Stolen);
  if (WorkSpan)
    WorkSpan->continuation(Cont);

  B.SetInsertPoint(Stolen);
  B.CreateCall(RT.SpawnStolen, {Frame});
  addSuspend(Stolen, Save, Cont);
  if (Invoke)
    lowerSpawnUnwind(Invoke, Stolen, UnwindCleanups);
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
  // Every function syncs before it returns. A return that ends an
  // exception's escape from the slow clone (SpawnExceptions.cpp) must not
  // rethrow at this sync: the exception is already in the frame.
  lowerSync({Ret, nullptr}, /*RethrowPending=*/Ret != EscapeReturn);
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
    B.CreateStore(Result, B.CreateStructGEP(FrameTy, Frame, 1, "result.addr"));
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
    lowerSync({Sync, Invoke ? Invoke->getUnwindDest() : nullptr},
              /*RethrowPending=*/true);
    eraseSyncMarker(Sync);
  }
  for (ReturnInst *Ret : Returns)
    lowerReturn(Ret);

  privatizeStatementTemporaries();
  F.addFnAttr(Attribute::PresplitCoroutine);
  ++NumSpawningFunctions;
  return true;
}

} // namespace weft
