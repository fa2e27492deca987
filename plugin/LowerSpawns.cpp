//===- LowerSpawns.cpp - Split spawning functions into fast and slow clones -===//
//
// Strategy. Cilk-5 compiles every spawning function twice: a fast clone that
// runs when nothing was stolen (a deque push before each spawned call and a
// pop after it, syncs free) and a slow clone that a thief enters to run the
// stolen continuation from a heap frame holding the live state. LLVM's
// switch-resume coroutine lowering already builds exactly that pair: the ramp
// is the whole function with every suspend turned into a return, the .resume
// function re-enters at any suspend point from a frame that holds every value
// and alloca live across a suspend. So this pass does not split anything
// itself: it rewrites each spawning function into a pre-split coroutine whose
// suspend points are the steal points, and lets coro-early, coro-split and
// coro-cleanup (which every default pipeline runs, -O0 included) do the rest.
// Like CoroSplit, it lets the optimizer see the function whole for as long as
// possible.
//
// Before (what the front end leaves):
//
//   define i64 @fib(i64 %n) {
//     %f = call ptr @__weft_spawn_marker(ptr @fib)
//     %x = call i64 %f(i64 %n1)
//     store i64 %x, ptr %x.addr
//     %y = call i64 @fib(i64 %n2)
//     call void @__weft_sync_marker()
//     ...
//     ret i64 %r
//   }
//
// After (pre-split; coro-split then makes the ramp = fast clone and
// @fib.resume = slow clone):
//
//   define i64 @fib(i64 %n) presplitcoroutine {
//     %frame = alloca { WeftFrame, i64 }           ; coroutine promise
//     %id  = coro.id(16, %frame, null, null)
//     %mem = alloca i8, i64 coro.size              ; frame on the fast stack
//     %hdl = coro.begin(%id, %mem)
//     store %hdl, %frame.coro ; zero the rest of WeftFrame
//     %save = coro.save(%hdl)          ; resume index = this spawn
//     call @__weft_push(%frame)        ; continuation now stealable
//     %x = call i64 @fib(i64 %n1)
//     store i64 %x, ptr %x.addr        ; result lands in the frame
//     %ok = call i1 @__weft_pop()
//     br %ok, %cont, %stolen
//   stolen:                            ; a thief runs the continuation
//     call @__weft_spawn_stolen(%frame); child done; fast clone parks
//     switch coro.suspend(%save), default %suspend.ret [0 -> %cont]
//   cont:
//     %y = call i64 @fib(i64 %n2)
//     br (load %frame.stolen), %sync.slow, %sync.done   ; free if not stolen
//   sync.slow:
//     %s2 = coro.save(%hdl)
//     br call @__weft_sync_slow(%frame), %sync.wait, %sync.done
//   sync.wait:                         ; last child to finish resumes us
//     switch coro.suspend(%s2), default %suspend.ret [0 -> %sync.done]
//   ...
//   ret:                               ; implicit sync, then
//     br (load %frame.stolen), %finish.slow, %finish.fast
//   finish.fast:  coro.end; ret i64 %r
//   finish.slow:  store %r, %frame.result; call @__weft_frame_complete(%frame)
//                 coro.end; ret poison      ; (resume clone: ret void)
//   suspend.ret:  coro.end; ret (load %frame.result)
//   }                                  ; ramp only: after the park returned
//
// Why the coroutine frame may live in the fast clone's stack frame: when a
// fast clone finds its frame stolen, __weft_spawn_stolen parks the whole
// stack (Boost.Context) until the slow clone completes; only then does the
// ramp return, through suspend.ret, with the value the slow clone stored. So
// that stack memory outlives every reader and no heap frame is needed.
//
// Why a steal point is save-before-push and suspend-after-pop: the thief may
// resume the continuation between coro.save and coro.suspend, which LLVM's
// coroutine rules allow. The victim, still inside the spawned call, touches
// only the call's result slot and then the runtime before it suspends.
//
//===----------------------------------------------------------------------===//

#include "LowerSpawns.h"

#include "weft/frame_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "weft-lower-spawns"

using namespace llvm;

STATISTIC(NumSpawningFunctions, "Functions split into fast and slow clones");
STATISTIC(NumSpawns, "Spawned calls lowered");
STATISTIC(NumSyncs, "Explicit syncs lowered");

namespace {

/// The runtime entry points and coroutine intrinsics one module needs.
struct RuntimeDecls {
  FunctionCallee Push, Pop, SpawnStolen, SyncSlow, FrameComplete;
  FunctionCallee FrameAlloc, FrameFree;
  Function *CoroId, *CoroSize, *CoroBegin, *CoroSave, *CoroSuspend, *CoroEnd;

  explicit RuntimeDecls(Module &M) {
    LLVMContext &C = M.getContext();
    Type *Ptr = PointerType::getUnqual(C);
    Type *Void = Type::getVoidTy(C);
    Type *Bool = Type::getInt1Ty(C);
    Push = M.getOrInsertFunction("__weft_push", Void, Ptr);
    Pop = M.getOrInsertFunction("__weft_pop", Bool);
    SpawnStolen = M.getOrInsertFunction("__weft_spawn_stolen", Void, Ptr);
    SyncSlow = M.getOrInsertFunction("__weft_sync_slow", Bool, Ptr);
    FrameComplete = M.getOrInsertFunction("__weft_frame_complete", Void, Ptr);
    FrameAlloc = M.getOrInsertFunction(weft::FrameAllocName, Ptr, Type::getInt64Ty(C));
    FrameFree = M.getOrInsertFunction(weft::FrameFreeName, Void, Ptr);
    if (auto *PopFn = dyn_cast<Function>(Pop.getCallee()))
      PopFn->addRetAttr(Attribute::ZExt);
    if (auto *SyncFn = dyn_cast<Function>(SyncSlow.getCallee()))
      SyncFn->addRetAttr(Attribute::ZExt);
    CoroId = Intrinsic::getDeclaration(&M, Intrinsic::coro_id);
    CoroSize = Intrinsic::getDeclaration(&M, Intrinsic::coro_size,
                                         {Type::getInt64Ty(C)});
    CoroBegin = Intrinsic::getDeclaration(&M, Intrinsic::coro_begin);
    CoroSave = Intrinsic::getDeclaration(&M, Intrinsic::coro_save);
    CoroSuspend = Intrinsic::getDeclaration(&M, Intrinsic::coro_suspend);
    CoroEnd = Intrinsic::getDeclaration(&M, Intrinsic::coro_end);
  }
};

/// Reports an error the front end could not catch, at the instruction's
/// source location when debug info has one. Clang prints it as an error
/// naming the function, and the compilation fails.
void reportUnsupported(Function &F, const Twine &Msg, const Instruction *At) {
  DebugLoc Loc = At ? At->getDebugLoc() : DebugLoc();
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, "weft: " + Msg, Loc, DS_Error));
}

/// One spawning function being rewritten.
class SpawnLowering {
public:
  SpawnLowering(Function &F, RuntimeDecls &RT) : F(F), RT(RT) {}

  /// Rewrites F into a pre-split coroutine. Returns false (after reporting)
  /// if F uses something the lowering cannot handle.
  bool run(ArrayRef<CallInst *> Spawns, ArrayRef<CallInst *> Syncs);

private:
  bool checkSupported(ArrayRef<CallInst *> Spawns);
  void emitPrologue();
  BasicBlock *getExit();
  void branchToExit(IRBuilder<> &B, bool Suspended, Value *V);
  void lowerSpawn(CallInst *Call);
  void lowerSync(Instruction *Before);
  void lowerReturn(ReturnInst *Ret);
  Value *frameField(IRBuilder<> &B, unsigned Offset, const Twine &Name);
  Value *loadStolen(IRBuilder<> &B);
  Instruction *collectSpawnWindow(CallInst *Call);
  void addSuspend(BasicBlock *From, Value *Save, BasicBlock *Resume);

  Function &F;
  RuntimeDecls &RT;
  Type *RetTy = nullptr;
  StructType *FrameTy = nullptr;
  AllocaInst *Frame = nullptr;
  Value *Mem = nullptr;
  Value *Handle = nullptr;
  BasicBlock *Exit = nullptr;
  PHINode *ExitWasSuspended = nullptr;
  PHINode *ExitValue = nullptr;
};

bool SpawnLowering::checkSupported(ArrayRef<CallInst *> Spawns) {
  for (Instruction &I : instructions(F)) {
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      if (!AI->isStaticAlloca()) {
        reportUnsupported(F,
                          "variable-length arrays and alloca() in a spawning "
                          "function are not supported yet",
                          AI);
        return false;
      }
    }
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isMustTailCall()) {
        reportUnsupported(F, "musttail calls cannot appear in a spawning function",
                          CB);
        return false;
      }
      if (Function *Callee = CB->getCalledFunction()) {
        StringRef Name = Callee->getName();
        if (Name == "setjmp" || Name == "_setjmp" || Name == "sigsetjmp" ||
            Name == "__sigsetjmp" || Name == "vfork") {
          reportUnsupported(F, Name + "() cannot be called in a spawning function",
                            CB);
          return false;
        }
      }
    }
    if (isa<IndirectBrInst>(&I)) {
      reportUnsupported(F, "computed goto cannot appear in a spawning function",
                        &I);
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
  Value *Flag = B.CreateLoad(
      B.getInt8Ty(), frameField(B, WEFT_FRAME_STOLEN_OFFSET, "stolen.addr"),
      "stolen");
  return B.CreateICmpNE(Flag, B.getInt8(0), "is.stolen");
}

void SpawnLowering::emitPrologue() {
  LLVMContext &C = F.getContext();
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());

  auto *HeaderTy = ArrayType::get(B.getInt64Ty(), WEFT_FRAME_SIZE / 8);
  SmallVector<Type *, 2> Fields = {HeaderTy};
  if (!RetTy->isVoidTy())
    Fields.push_back(RetTy);
  FrameTy = StructType::create(C, Fields, (F.getName() + ".weft.frame").str());
  Frame = B.CreateAlloca(FrameTy, nullptr, "weft.frame");
  Frame->setAlignment(Align(16));

  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  Value *Id = B.CreateCall(RT.CoroId, {B.getInt32(16), Frame, Null, Null},
                           "weft.id");
  Value *Size = B.CreateCall(RT.CoroSize, {}, "weft.size");
  // The coroutine frame belongs in the fast clone's stack frame (see the
  // file comment), but its size is only known after coro-split, and the
  // frame builder rejects dynamic allocas; FrameToStack turns this call
  // into an alloca once the size is a constant.
  Mem = B.CreateCall(RT.FrameAlloc, {Size}, "weft.mem");
  Handle = B.CreateCall(RT.CoroBegin, {Id, Mem}, "weft.hdl");

  // Fresh frame: no steals, no children, not parked.
  B.CreateStore(Handle, frameField(B, WEFT_FRAME_CORO_OFFSET, "coro.addr"));
  for (unsigned Off = WEFT_FRAME_JOIN_OFFSET; Off < WEFT_FRAME_SIZE; Off += 8)
    B.CreateStore(B.getInt64(0), frameField(B, Off, "hdr.word"));
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

/// Returns the last instruction of the spawn's window: the store of the call
/// result (with any conversion feeding it), or the call itself. Instructions
/// between the call and that store that do not depend on the result (the
/// destination's address, at -O0) are hoisted above the call: the
/// destination is evaluated in the parent before the spawn.
Instruction *SpawnLowering::collectSpawnWindow(CallInst *Call) {
  if (Call->use_empty())
    return Call;
  SmallPtrSet<Instruction *, 8> DependsOnResult = {Call};
  SmallVector<Instruction *, 8> Hoist;
  for (Instruction *I = Call->getNextNode(); I && !I->isTerminator();
       I = I->getNextNode()) {
    bool Depends = any_of(I->operands(), [&](Value *Op) {
      auto *OpI = dyn_cast<Instruction>(Op);
      return OpI && DependsOnResult.count(OpI);
    });
    if (auto *SI = dyn_cast<StoreInst>(I);
        SI && Depends && !DependsOnResult.count(
                             dyn_cast_or_null<Instruction>(SI->getPointerOperand()))) {
      bool OnlyFeedsStore = all_of(DependsOnResult, [&](Instruction *D) {
        return all_of(D->users(), [&](User *U) {
          return U == SI || DependsOnResult.count(cast<Instruction>(U));
        });
      });
      if (!OnlyFeedsStore)
        break;
      for (Instruction *H : Hoist)
        H->moveBefore(Call);
      return SI;
    }
    if (Depends) {
      if (I->mayHaveSideEffects())
        break;
      DependsOnResult.insert(I);
    } else {
      Hoist.push_back(I);
    }
  }
  reportUnsupported(F,
                    "the result of a spawned call must be stored directly "
                    "into a variable or an lvalue",
                    Call);
  return Call;
}

void SpawnLowering::lowerSpawn(CallInst *Call) {
  ++NumSpawns;
  Instruction *WindowEnd = collectSpawnWindow(Call);
  if (auto *ResultStore = dyn_cast<StoreInst>(WindowEnd)) {
    // The result may be read only after the sync, and only through memory:
    // if SROA promoted the destination, the value would flow as SSA to a
    // phi before the sync, and coro-split would reload it at the resume
    // point, where the thief runs while the child is still computing it.
    // A volatile store keeps the destination in memory (in the frame).
    ResultStore->setVolatile(true);
  }
  IRBuilder<> B(Call);
  Value *Save = B.CreateCall(RT.CoroSave, {Handle}, "weft.save");
  B.CreateCall(RT.Push, {Frame});

  BasicBlock *Head = Call->getParent();
  BasicBlock *Cont =
      Head->splitBasicBlock(WindowEnd->getNextNode(), "weft.spawn.cont");
  Head->getTerminator()->eraseFromParent();
  BasicBlock *Stolen =
      BasicBlock::Create(F.getContext(), "weft.spawn.stolen", &F, Cont);
  B.SetInsertPoint(Head);
  Value *Owned = B.CreateCall(RT.Pop, {}, "weft.owned");
  B.CreateCondBr(Owned, Cont, Stolen);

  B.SetInsertPoint(Stolen);
  B.CreateCall(RT.SpawnStolen, {Frame});
  addSuspend(Stolen, Save, Cont);
}

void SpawnLowering::lowerSync(Instruction *Before) {
  BasicBlock *Head = Before->getParent();
  BasicBlock *Done = Head->splitBasicBlock(Before, "weft.sync.done");
  Head->getTerminator()->eraseFromParent();
  LLVMContext &C = F.getContext();
  BasicBlock *Slow = BasicBlock::Create(C, "weft.sync.slow", &F, Done);
  BasicBlock *Wait = BasicBlock::Create(C, "weft.sync.wait", &F, Done);

  // A fast clone at a sync was never stolen (a steal makes its next pop fail
  // and it parks), so the sync costs one load and a branch.
  IRBuilder<> B(Head);
  B.CreateCondBr(loadStolen(B), Slow, Done);

  B.SetInsertPoint(Slow);
  Value *Save = B.CreateCall(RT.CoroSave, {Handle}, "weft.save");
  Value *MustWait = B.CreateCall(RT.SyncSlow, {Frame}, "weft.wait");
  B.CreateCondBr(MustWait, Wait, Done);
  addSuspend(Wait, Save, Done);
}

void SpawnLowering::lowerReturn(ReturnInst *Ret) {
  lowerSync(Ret); // every function syncs before it returns
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
  if (Result)
    B.CreateStore(Result, B.CreateStructGEP(FrameTy, Frame, 1, "result.addr"));
  // After this call the parked fast clone may run and reuse the frame: the
  // slow clone must not touch it again, and the exit's coro.end returns.
  B.CreateCall(RT.FrameComplete, {Frame});
  branchToExit(B, /*Suspended=*/false, nullptr);
}

bool SpawnLowering::run(ArrayRef<CallInst *> Spawns, ArrayRef<CallInst *> Syncs) {
  if (!checkSupported(Spawns))
    return false;
  RetTy = F.getReturnType();
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(R);

  emitPrologue();
  for (CallInst *Call : Spawns)
    lowerSpawn(Call);
  for (CallInst *Sync : Syncs) {
    ++NumSyncs;
    lowerSync(Sync);
    Sync->eraseFromParent();
  }
  for (ReturnInst *Ret : Returns)
    lowerReturn(Ret);

  F.addFnAttr(Attribute::PresplitCoroutine);
  ++NumSpawningFunctions;
  return true;
}

/// Resolves the spawn marks in F: each marker call wraps the callee of
/// exactly one call, which becomes a direct (or plain indirect) call again.
bool collectSpawns(Function &F, Function *Marker,
                   SmallVectorImpl<CallInst *> &Spawns) {
  SmallVector<CallInst *, 8> Marks;
  for (User *U : Marker->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getFunction() == &F)
      Marks.push_back(CI);
  bool Ok = true;
  for (CallInst *Mark : Marks) {
    CallBase *Spawned = nullptr;
    if (Mark->hasOneUse())
      Spawned = dyn_cast<CallBase>(Mark->user_back());
    if (!Spawned || Spawned->getCalledOperand() != Mark) {
      reportUnsupported(F, "internal error: spawn mark not attached to a call",
                        Mark);
      Ok = false;
      continue;
    }
    Spawned->setCalledOperand(Mark->getArgOperand(0)->stripPointerCasts());
    Mark->eraseFromParent();
    if (auto *Call = dyn_cast<CallInst>(Spawned)) {
      Spawns.push_back(Call);
      continue;
    }
    reportUnsupported(F,
                      "a spawned call that may throw inside a try block or a "
                      "scope with destructors is not supported yet",
                      Spawned);
    Ok = false;
  }
  return Ok;
}

/// The call whose `this` argument derives (through this-adjusting GEPs and
/// casts) from an object mark's result: a member call, a member operator,
/// or a virtual call, which also loads its vtable through the same pointer.
CallBase *findMarkedMemberCall(CallInst *Mark) {
  CallBase *Found = nullptr;
  SmallVector<Value *, 4> Work = {Mark};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      if (auto *CB = dyn_cast<CallBase>(U)) {
        unsigned This = CB->arg_size() > 1 && CB->paramHasAttr(0, Attribute::StructRet);
        if (CB->arg_size() > This && CB->getArgOperand(This) == V) {
          if (Found && Found != CB)
            return nullptr;
          Found = CB;
        }
      } else if (isa<GetElementPtrInst>(U) || isa<CastInst>(U)) {
        Work.push_back(U);
      }
    }
  }
  return Found;
}

/// Resolves the object marks in F (member calls): the marker returns its
/// argument, so it is simply bypassed once the spawned call is known.
bool collectMemberSpawns(Function &F, Function *Marker,
                         SmallVectorImpl<CallInst *> &Spawns) {
  SmallVector<CallInst *, 8> Marks;
  for (User *U : Marker->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getFunction() == &F)
      Marks.push_back(CI);
  bool Ok = true;
  for (CallInst *Mark : Marks) {
    CallBase *Spawned = findMarkedMemberCall(Mark);
    Mark->replaceAllUsesWith(Mark->getArgOperand(0));
    Mark->eraseFromParent();
    if (auto *Call = dyn_cast_or_null<CallInst>(Spawned)) {
      Spawns.push_back(Call);
      continue;
    }
    reportUnsupported(F,
                      Spawned ? "a spawned call that may throw inside a try "
                                "block or a scope with destructors is not "
                                "supported yet"
                              : "internal error: member spawn mark not "
                                "attached to a call",
                      Spawned);
    Ok = false;
  }
  return Ok;
}

void collectSyncs(Function &F, Function *Marker,
                  SmallVectorImpl<CallInst *> &Syncs) {
  for (User *U : Marker->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getFunction() == &F)
      Syncs.push_back(CI);
}

} // namespace

namespace weft {

PreservedAnalyses LowerSpawnsPass::run(Module &M, ModuleAnalysisManager &) {
  Function *SpawnMarker = M.getFunction(SpawnMarkerName);
  Function *ObjectMarker = M.getFunction(ObjectMarkerName);
  Function *SyncMarker = M.getFunction(SyncMarkerName);
  if (!SpawnMarker && !ObjectMarker && !SyncMarker)
    return PreservedAnalyses::all();

  SmallVector<Function *, 16> Worklist;
  for (Function *Marker : {SpawnMarker, ObjectMarker, SyncMarker})
    if (Marker)
      for (User *U : Marker->users())
        if (auto *CI = dyn_cast<CallInst>(U))
          if (!is_contained(Worklist, CI->getFunction()))
            Worklist.push_back(CI->getFunction());

  RuntimeDecls RT(M);
  for (Function *F : Worklist) {
    SmallVector<CallInst *, 8> Spawns, Syncs;
    bool Ok = !SpawnMarker || collectSpawns(*F, SpawnMarker, Spawns);
    Ok &= !ObjectMarker || collectMemberSpawns(*F, ObjectMarker, Spawns);
    if (SyncMarker)
      collectSyncs(*F, SyncMarker, Syncs);
    if (Ok && !Spawns.empty()) {
      LLVM_DEBUG(dbgs() << "weft: lowering " << F->getName() << " ("
                        << Spawns.size() << " spawns)\n");
      if (SpawnLowering(*F, RT).run(Spawns, Syncs))
        continue;
    }
    // No spawn (a sync in a function that never spawns is a no-op), or an
    // error was reported: drop whatever marks are left.
    for (CallInst *Sync : Syncs)
      Sync->eraseFromParent();
  }
  for (Function *Marker : {SpawnMarker, ObjectMarker, SyncMarker})
    if (Marker && Marker->use_empty())
      Marker->eraseFromParent();
  return PreservedAnalyses::none();
}

} // namespace weft
