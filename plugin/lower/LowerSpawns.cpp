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
// Before (what the front end leaves; 1234 stands for the raw encoding of
// the spawn's clang::SourceLocation, see SourceErrors.h):
//
//   define i64 @fib(i64 %n) {
//     %f = call ptr @__weft_spawn_marker(ptr @fib, i32 1234)
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
//     store 0, %frame.join ...         ; zero the WeftFrame header
//     %save = coro.save(%hdl)          ; resume index = this spawn
//     %m = call i64 @__weft_push(%frame) ; continuation now stealable
//     %x = call i64 @fib(i64 %n1)
//     store i64 %x, ptr %x.addr        ; result lands in the frame
//     %ok = call i1 @__weft_pop(i64 %m) ; the push's mark
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
// Before any of this (at -O1 and above, outside race mode), a spawning
// function that does what a function it spawns does becomes a call of it
// (shared/TwinFunctions.h): parlaylib's parallel_for<L> of
// parallel_for<L&>. It then spawns nothing, is not lowered, and its callers
// inline it:
//
//   define void @pf_L(...) {               define void @pf_L(...) {
//     ... spawn @pf_Lref(lo, mid)    ==>     tail call void @pf_Lref(...)
//     @pf_Lref(mid, hi); sync                ret void
//
//===----------------------------------------------------------------------===//

#include "lower/LowerSpawns.h"
#include "lower/ArgumentTemporaries.h"
#include "lower/ThreadLocals.h"
#include "shared/Markers.h"
#include "lower/parallel_for/ParallelFor.h"
#include "shared/SourceErrors.h"
#include "shared/TwinFunctions.h"
#include "lower/SpawnLowering.h"
#include "analysis/RaceScopeEnds.h"
#include "analysis/WorkSpan.h"
#include "lower/Pedigrees.h"

#include "weft/frame_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/FunctionComparator.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"

#include <optional>

#define DEBUG_TYPE "weft-lower-spawns"

STATISTIC(NumEarlyTwins,
          "Spawning functions made calls of their twins before lowering");

using namespace llvm;
using weft::reportUnsupported;
using weft::RuntimeDecls;
using weft::SpawnLowering;

namespace {

/// Moves a marker's source location (its second argument, if the front end
/// gave one) onto the call \p To, as a string attribute of the call site:
/// unlike metadata, it stays when the lowering turns the call into an
/// invoke, and it means nothing to LLVM's optimisations.
void noteSpawnLocation(CallInst *Mark, CallBase *To) {
  if (Mark->arg_size() < 2)
    return;
  if (auto *Raw = dyn_cast<ConstantInt>(Mark->getArgOperand(1)))
    To->addFnAttr(Attribute::get(To->getContext(), weft::SpawnLocationAttr,
                                 utostr(Raw->getZExtValue())));
}

/// Drops the locations and argument notes once nothing can be reported
/// about the spawns.
void dropSpawnNotes(Module &M) {
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        CB->removeFnAttr(weft::SpawnLocationAttr);
        CB->removeFnAttr(weft::ArgumentTemporariesAttr);
      }
}

/// Moves the marker's argument layout (its third argument, if the front end
/// gave one) onto the spawned call as the list of its operands that are
/// by-value temporaries: "weft-arg-temporaries"="1,3" (SpawnArguments.cpp).
bool noteArgumentTemporaries(Function &F, CallInst *Mark, CallBase *Spawned) {
  StringRef Layout;
  if (Mark->arg_size() < 3 || !getConstantStringInfo(Mark->getArgOperand(2), Layout))
    return true;
  SmallVector<unsigned, 2> Temporaries;
  if (!weft::placeTemporaries(Spawned, Layout, Temporaries)) {
    reportUnsupported(F,
                      "this spawned call passes a class by value between two "
                      "arguments of struct type, and the class's temporary "
                      "cannot be told apart; pass it by const reference or "
                      "move it before the struct arguments",
                      Spawned);
    return false;
  }
  weft::listTemporaries(Spawned, Temporaries);
  return true;
}

/// Erases a resolved mark, and the layout string only it used.
void eraseMark(CallInst *Mark) {
  auto *Layout = Mark->arg_size() > 2
                     ? dyn_cast<GlobalVariable>(Mark->getArgOperand(2))
                     : nullptr;
  Mark->eraseFromParent();
  if (Layout && Layout->use_empty() && Layout->hasPrivateLinkage())
    Layout->eraseFromParent();
}

/// The calls of \p Marker in \p F, gathered before any is resolved, since
/// resolving one erases it from the marker's users.
SmallVector<CallInst *, 8> marksIn(Function &F, Function *Marker) {
  SmallVector<CallInst *, 8> Marks;
  for (User *U : Marker->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getFunction() == &F)
      Marks.push_back(CI);
  return Marks;
}

/// Resolves the spawn marks in F: each marker call wraps the callee of
/// exactly one call (or invoke), which becomes a direct (or plain indirect)
/// call again.
bool collectSpawns(Function &F, Function *Marker,
                   SmallVectorImpl<CallBase *> &Spawns) {
  bool Ok = true;
  for (CallInst *Mark : marksIn(F, Marker)) {
    // The call through the marked pointer; other uses (UBSan's function
    // type check reads the callee's prologue) just get the callee back.
    CallBase *Spawned = nullptr;
    bool OneCall = true;
    for (User *U : Mark->users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == Mark) {
        OneCall = !Spawned;
        Spawned = CB;
      }
    if (!Spawned || !OneCall) {
      noteSpawnLocation(Mark, Mark);
      reportUnsupported(F, "internal error: spawn mark not attached to a call",
                        Mark);
      Ok = false;
      continue;
    }
    noteSpawnLocation(Mark, Spawned);
    Ok &= noteArgumentTemporaries(F, Mark, Spawned);
    Mark->replaceAllUsesWith(Mark->getArgOperand(0)->stripPointerCasts());
    eraseMark(Mark);
    Spawns.push_back(Spawned);
  }
  return Ok;
}

/// The call whose `this` argument derives (through this-adjusting GEPs and
/// casts) from an object mark's result: a member call, a member operator,
/// a virtual call, which also loads its vtable through the same pointer, or
/// a call through a pointer to member (`this` offset by the pointer's
/// adjustment, and a virtual one's vtable loaded from there). Sanitizer
/// checks on the object are not candidates.
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
        // A sanitizer's check of the object (-fsanitize=undefined: its
        // size, its dynamic type) is no call of the program's.
        if (CB->hasMetadata(LLVMContext::MD_nosanitize))
          continue;
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
                         SmallVectorImpl<CallBase *> &Spawns) {
  bool Ok = true;
  for (CallInst *Mark : marksIn(F, Marker)) {
    CallBase *Spawned = findMarkedMemberCall(Mark);
    noteSpawnLocation(Mark, Spawned ? Spawned : Mark);
    if (!Spawned) {
      reportUnsupported(
          F, "internal error: member spawn mark not attached to a call", Mark);
      Ok = false;
    } else {
      Ok &= noteArgumentTemporaries(F, Mark, Spawned);
    }
    Mark->replaceAllUsesWith(Mark->getArgOperand(0));
    eraseMark(Mark);
    if (Spawned)
      Spawns.push_back(Spawned);
  }
  return Ok;
}

/// The sync marks in F: calls, or invokes where the sync sits in a try
/// block or a scope with destructors (the marker may throw, so that Clang
/// tells us where an exception rethrown at the sync must go).
void collectSyncs(Function &F, Function *Marker,
                  SmallVectorImpl<CallBase *> &Syncs) {
  for (User *U : Marker->users())
    if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getFunction() == &F)
      Syncs.push_back(CB);
}



/// The front end names its markers and the runtime's reducer entries by
/// asm labels (frontend/SpawnRewriter.cpp). Since Clang 22 such a name is
/// "\01"-prefixed on targets whose C symbols take a prefix (32-bit Windows),
/// which keeps the prefix off; 19 gave the plain name, which is what the
/// lowering looks for and the runtime's symbols are. Each gets it back.
bool unprefixAsmLabels(Module &M) {
  SmallVector<Function *, 4> Labelled;
  for (Function &Fn : M)
    if (Fn.getName().starts_with("\01__weft_"))
      Labelled.push_back(&Fn);
  for (Function *Fn : Labelled) {
    StringRef Plain = Fn->getName().drop_front();
    if (Function *Existing = M.getFunction(Plain)) {
      Fn->replaceAllUsesWith(Existing);
      Fn->eraseFromParent();
    } else {
      Fn->setName(Plain);
    }
  }
  return !Labelled.empty();
}

/// The functions that call any of \p Markers (null ones left out), each
/// once, in the order of the markers' uses.
SmallVector<Function *, 16>
functionsCalling(std::initializer_list<Function *> Markers) {
  SmallVector<Function *, 16> Callers;
  for (Function *Marker : Markers)
    if (Marker)
      for (User *U : Marker->users())
        if (auto *CB = dyn_cast<CallBase>(U);
            CB && !is_contained(Callers, CB->getFunction()))
          Callers.push_back(CB->getFunction());
  return Callers;
}

/// Before anything is lowered or optimised, each spawning function that is
/// the twin of a spawning function it calls or spawns (shared/
/// TwinFunctions.h; parlaylib's parallel_for<L> of parallel_for<L&>)
/// becomes a call of it: no longer a spawning function, it is inlined into
/// its callers as the serial elision's instance is, and nothing of it is
/// split, optimised or compiled twice. Each forwards only to a twin that
/// keeps its body, so no forwarding closes a cycle.
bool forwardEarlyTwins(Module &M) {
  // The functions that spawn, as the front end left them.
  SmallVector<Function *, 16> Spawning =
      functionsCalling({M.getFunction(weft::SpawnMarkerName),
                        M.getFunction(weft::ObjectMarkerName)});
  SmallPtrSet<Function *, 16> IsSpawning(Spawning.begin(), Spawning.end());
  GlobalNumberState Numbers;
  SmallVector<std::pair<Function *, Function *>, 8> Twins;
  for (Function *F : Spawning) {
    SmallPtrSet<Function *, 4> Tried;
    for (Instruction &I : instructions(*F)) {
      // A spawned call's callee is the spawn mark's first operand.
      auto *Call = dyn_cast<CallBase>(&I);
      Function *Callee = nullptr;
      if (Call && Call->getCalledFunction() &&
          Call->getCalledFunction()->getName() == weft::SpawnMarkerName)
        Callee = dyn_cast<Function>(Call->getArgOperand(0)->stripPointerCasts());
      else if (Call)
        Callee = Call->getCalledFunction();
      if (!Callee || Callee == F || !IsSpawning.contains(Callee) ||
          !Tried.insert(Callee).second)
        continue;
      if (weft::isTwinOf(*F, *Callee, Numbers, /*NounwindInvokesAsCalls=*/true)) {
        Twins.push_back({F, Callee});
        break;
      }
    }
  }
  unsigned Forwarded = weft::forwardToTwins(Twins);
  NumEarlyTwins += Forwarded;
  return Forwarded != 0;
}

} // namespace

namespace weft {

PreservedAnalyses LowerSpawnsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Renamed = unprefixAsmLabels(M);
  // Before the parallel loops are outlined, which would give each twin a
  // loop body of its own.
  bool Forwarded = ForwardTwins && forwardEarlyTwins(M);
  // First, so that a parallel loop whose body spawns becomes a spawning
  // function of its own (ParallelFor.cpp).
  bool Outlined = outlineParallelLoops(M);
  // Before the analyses rename the splitter, which the pedigrees' loop
  // entry then calls under its new name.
  bool Routed = Pedigrees && routeParallelLoopsThroughPedigrees(M);
  bool Reporting = Mode != Analysis::None;
  if (Reporting)
    prepareWorkSpanModule(M, Mode);
  Function *SpawnMarker = M.getFunction(SpawnMarkerName);
  Function *ObjectMarker = M.getFunction(ObjectMarkerName);
  Function *SyncMarker = M.getFunction(SyncMarkerName);
  bool HidTLS = hideThreadLocalAddresses(M);
  if (!SpawnMarker && !ObjectMarker && !SyncMarker)
    return HidTLS || Outlined || Renamed || Reporting || Forwarded || Routed
               ? PreservedAnalyses::none()
               : PreservedAnalyses::all();

  SmallVector<Function *, 16> Worklist =
      functionsCalling({SpawnMarker, ObjectMarker, SyncMarker});

  RuntimeDecls RT(M);
  std::optional<WorkSpanHooks> Hooks;
  if (Reporting)
    Hooks.emplace(M, Mode);
  std::optional<PedigreeHooks> PedigreeCalls;
  if (Pedigrees)
    PedigreeCalls.emplace(M);
  for (Function *F : Worklist) {
    SmallVector<CallBase *, 8> Spawns, Syncs;
    bool Ok = !SpawnMarker || collectSpawns(*F, SpawnMarker, Spawns);
    Ok &= !ObjectMarker || collectMemberSpawns(*F, ObjectMarker, Spawns);
    if (SyncMarker)
      collectSyncs(*F, SyncMarker, Syncs);
    if (Ok && !Spawns.empty()) {
      LLVM_DEBUG(dbgs() << "weft: lowering " << F->getName() << " ("
                        << Spawns.size() << " spawns)\n");
      WorkSpanHooks *Calls = Hooks ? &*Hooks : nullptr;
      PedigreeHooks *Ped = PedigreeCalls ? &*PedigreeCalls : nullptr;
      if (SpawnLowering(*F, RT, Calls, Ped).run(Spawns, Syncs)) {
        if (Mode == Analysis::Race)
          reportScopeEnds(*F, /*SharedOnly=*/true);
        continue;
      }
    }
    // No spawn (a sync in a function that never spawns is a no-op), or an
    // error was reported: drop whatever marks are left.
    for (CallBase *Sync : Syncs)
      weft::eraseSyncMarker(Sync);
  }
  // The spawned statements' ends served the windows; nothing else needs them.
  if (Function *EndMarker = M.getFunction(SpawnEndMarkerName)) {
    while (!EndMarker->use_empty())
      cast<Instruction>(EndMarker->user_back())->eraseFromParent();
    EndMarker->eraseFromParent();
  }
  for (Function *Marker : {SpawnMarker, ObjectMarker, SyncMarker})
    if (Marker && Marker->use_empty())
      Marker->eraseFromParent();
  dropSpawnNotes(M);
  return PreservedAnalyses::none();
}

} // namespace weft
