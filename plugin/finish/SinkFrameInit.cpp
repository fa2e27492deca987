//===- SinkFrameInit.cpp - Initialise a fast clone's frame only if used ---===//
//
// coro-split and the lowering initialise the coroutine frame in the fast
// clone's entry block: the resume and destroy pointers, the frame header
// (handle, join, park, steals, exception), and the spills of arguments that
// the slow clone would need. A call that never reaches a spawn (a leaf of
// fib, half of all its calls) pays for all of it:
//
//   entry:                                    entry:
//     %mem = alloca [112 x i8]                  %mem = alloca [112 x i8]
//     store @f.resume, %mem                     br %leaf, %ret, %rec
//     store @f.destroy, %mem+8      ==>       rec:
//     store %mem, %mem+16 ; header              store @f.resume, %mem
//     store 0, %mem+24 ...                      store %mem, %mem+16
//     store %n, %mem+72   ; spill               ... (the same stores)
//     br %leaf, %ret, %rec                      %n1 = load %mem+72
//   rec:                                        call @__weft_push(%mem+16)
//     %n1 = load %mem+72
//     call @__weft_push(%mem+16)
//
// The store of the destroy function goes altogether: Weft never destroys a
// spawning function's frame through its coroutine handle (a thief resumes
// it, or it completes), so the slot is never read.
//
// The empty asm that marked a spawn's destination as escaped goes, the
// destination being a slot of the frame now (dropEscapeMarkers below). The
// stores move to the nearest block that dominates every other use of the
// frame, outside any loop, before the first such use there. What they
// store is a constant, an argument or a value of the entry block, so it is
// available there, and nothing reads the frame before (the frame is the
// function's own alloca and has not escaped yet). With the stores gone from
// the leaf path, the backend's shrink-wrapping can also keep the prologue's
// register saves off it.
//
// A function that spawns only above a cutoff (parlaylib's par_do_if, most
// divide-and-conquer code) runs most of its calls on a path that never
// spawns, and the frame's uses there are loads of the values it spilled,
// read back after the calls below the cutoff. Before the frame escapes (it
// escapes at a push, handing the runtime its header), nothing but the
// function itself can have written a slot; past the push, nothing but the
// function writes a slot either, unless a thief stole the continuation,
// and then the fast clone reads no slot but in its stolen exit. So a load
// that runs before any escape, of a slot whose only store dominates it,
// takes the stored value (forwardSpills), and the stores go with the rest:
//
//   entry:                                    entry:
//     store %s, %frame.s                        br %big, %spawn, %serial
//     memset %frame.header                    spawn:
//     br %big, %spawn, %serial                  store %s, %frame.s
//   spawn:                                      memset %frame.header
//     ...push, the halves, pop      ==>         ...push, the halves, pop
//   serial:                                   serial:
//     call @f(%s, %mid)                         call @f(%s, %mid)
//     call @f(%mid, %e)                         call @f(%mid, %e)
//     br %join                                  br %join
//   join:                                     join:
//     %s2 = load %frame.s                       call @merge(%s, ...)
//     call @merge(%s2, ...)
//
// A load that runs only after a push keeps reading the slot: the store is
// there anyway, and the value need not live in a register across the
// calls. Where the frame hands anyone a pointer to a slot, nothing is
// forwarded. The calls below the cutoff no longer unwind to the frame's
// catch-and-rethrow pad, which used the header (demoteRethrowingInvokes,
// RethrowExits.cpp, first).
//
// The resume pointer goes first, and further (sinkResumePointers, before
// the fast path is inlined, while each push is still a call of
// __weft_push): only a thief reads it, and a thief finds the frame only
// through a push, so it is stored just before the pushes (outside any
// loop), whatever else uses the frame. Where no push is left, in a fast
// clone inlined into a caller whose constant argument folded its spawning
// path away, neither it nor the destroy pointer is stored at all, and with
// nothing else naming the clones they are dead:
//
//   scale:                                 scale:
//     %mem = call @__weft_frame_alloc(104)   %mem = call @__weft_frame_alloc(104)
//     store @pfor.resume, %mem       ==>     ... the cilk_for path only
//     store @pfor.destroy, %mem+8
//     ... the cilk_for path only
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/LLVMCompat.h"
#include "shared/Markers.h"
#include "shared/RuntimeABI.h"
#include "weft/frame_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

#define DEBUG_TYPE "weft-frame-to-stack"

using namespace llvm;

STATISTIC(NumSunkInits, "Frame initialisations moved off paths without spawns");
STATISTIC(NumDroppedDestroyPointers,
          "Stores of a coroutine's destroy function dropped from fast clones");
STATISTIC(NumForwardedSpills,
          "Loads of spilled values that took the value, before the frame escapes");
STATISTIC(NumDroppedEscapeMarkers,
          "Escape markers of allocas that became frame slots dropped");

namespace weft {

/// Where the frame's slots begin: past the resume and destroy pointers and
/// the runtime's header (frame_abi.h).
constexpr int64_t SlotsBegin = WEFT_FRAME_PROMISE_OFFSET + WEFT_FRAME_SIZE;

bool isEscapeMarker(const Instruction &I) {
  return isa<CallInst>(I) && I.getMetadata(EscapeMarkerMD);
}

namespace {

/// Whether anything but the escape markers captures the frame.
struct CapturedOtherwise : compat::SimpleCaptureTracker {
  bool Captured = false;
  void tooManyUses() override { Captured = true; }
  bool capturedBy(const Use *U) override {
    if (isEscapeMarker(*cast<Instruction>(U->getUser())))
      return false;
    Captured = true;
    return true;
  }
};

/// Drops the escape markers of allocas that coro-split turned into slots
/// of \p Frame, and takes them out of \p Uses. A marker made its alloca
/// escape so that no load of it after a sync could be hoisted above the
/// sync's runtime calls. The frame escapes anyway: every spawn first
/// pushes it, which stores its address in the deque (or passes it to the
/// runtime), so every call after a push may write any slot. Only the fast
/// clone has the markers (they sat in the entry block), and a fast clone's
/// syncs make no calls at all. Left alone, a marker would still clobber
/// all memory, making the fast clone reload from the frame the arguments
/// it has just spilled there, and it would take a register for its operand.
void dropEscapeMarkers(AllocaInst *Frame, SmallVectorImpl<Instruction *> &Uses) {
  CapturedOtherwise Tracker;
  PointerMayBeCaptured(Frame, &Tracker);
  if (!Tracker.Captured)
    return;
  SmallVector<Instruction *, 4> Markers;
  for (Instruction *I : Uses)
    if (isEscapeMarker(*I))
      Markers.push_back(I);
  for (Instruction *Marker : Markers) {
    erase(Uses, Marker);
    Marker->eraseFromParent();
    ++NumDroppedEscapeMarkers;
  }
}

/// The bytes of \p Frame that \p I reads or writes, for a non-atomic load,
/// store or memset at a constant offset of the frame.
std::optional<std::pair<int64_t, int64_t>> accessedBytes(const Instruction &I,
                                                         const AllocaInst *Frame) {
  const DataLayout &DL = I.getDataLayout();
  const Value *Addr = nullptr;
  int64_t Size = 0;
  if (const auto *Store = dyn_cast<StoreInst>(&I); Store && !Store->isAtomic()) {
    Addr = Store->getPointerOperand();
    Size = DL.getTypeStoreSize(Store->getValueOperand()->getType());
  } else if (const auto *Load = dyn_cast<LoadInst>(&I); Load && !Load->isAtomic()) {
    Addr = Load->getPointerOperand();
    Size = DL.getTypeStoreSize(Load->getType());
  } else if (const auto *Set = dyn_cast<MemSetInst>(&I)) {
    // The header's zeroing, as InstCombine merged its stores.
    auto *Length = dyn_cast<ConstantInt>(Set->getLength());
    if (!Length)
      return std::nullopt;
    Addr = Set->getDest();
    Size = Length->getSExtValue();
  }
  int64_t Offset = 0;
  if (!Addr || GetPointerBaseWithConstantOffset(Addr, Offset, DL) != Frame)
    return std::nullopt;
  return std::make_pair(Offset, Offset + Size);
}

/// Every instruction that uses \p Frame's memory, through address
/// arithmetic, except the address arithmetic itself.
void collectFrameUses(AllocaInst *Frame, SmallVectorImpl<Instruction *> &Uses) {
  SmallVector<Instruction *, 16> Work = {Frame};
  SmallPtrSet<Instruction *, 32> Seen;
  while (!Work.empty()) {
    Instruction *Addr = Work.pop_back_val();
    for (User *U : Addr->users()) {
      auto *I = cast<Instruction>(U);
      if (!Seen.insert(I).second)
        continue;
      if (isa<GetElementPtrInst>(I) || isa<CastInst>(I))
        Work.push_back(I);
      else
        Uses.push_back(I);
    }
  }
}

/// The function \p I stores at \p Offset of \p Frame, if it is such a store.
Function *storedFunction(Instruction *I, const AllocaInst *Frame,
                         int64_t Offset) {
  auto *Store = dyn_cast<StoreInst>(I);
  auto Bytes = accessedBytes(*I, Frame);
  if (!Store || !Bytes || Bytes->first != Offset)
    return nullptr;
  return dyn_cast<Function>(Store->getValueOperand());
}

/// Drops the store of the destroy function's address into \p Frame
/// (switch-resume coroutines keep it next to the resume function's): a
/// spawning function's frame is resumed by a thief or completes, and nothing
/// ever destroys it, so the store is dead on every spawn. Recognised by the
/// pair coro-split emits, a `.resume` function at offset 0 and a `.destroy`
/// one a pointer further, with nothing else in the function reading that
/// slot.
/// The store also leaves \p Uses.
void dropDestroyPointer(AllocaInst *Frame,
                        SmallVectorImpl<Instruction *> &Uses) {
  const DataLayout &DL = Frame->getDataLayout();
  int64_t Slot = DL.getPointerSize();
  Function *Resume = nullptr;
  Instruction *DestroyStore = nullptr;
  for (Instruction *I : Uses) {
    if (Function *Fn = storedFunction(I, Frame, 0))
      Resume = Fn;
    else if (Function *Fn = storedFunction(I, Frame, Slot);
             Fn && Fn->getName().ends_with(".destroy"))
      DestroyStore = I;
  }
  // The two need not share a name: mergeIdenticalClones may have replaced
  // either with an identical clone of another function.
  if (!Resume || !DestroyStore || !Resume->getName().ends_with(".resume"))
    return;
  // The runtime (the push's callee) reads the resume pointer and the
  // header, never the destroy slot; a load of that slot keeps the store.
  for (Instruction *I : Uses) {
    if (!isa<LoadInst>(I))
      continue;
    auto Bytes = accessedBytes(*I, Frame);
    if (!Bytes || (Bytes->first < 2 * Slot && Slot < Bytes->second))
      return;
  }
  erase(Uses, DestroyStore);
  DestroyStore->eraseFromParent();
  ++NumDroppedDestroyPointers;
}

/// A use of a pointer into the frame other than a load or a store through
/// it or a memset of it: a call it is passed to, a store of it as a value,
/// its cast to an integer. With the pointer's offset into the frame, if
/// that is a constant.
struct FrameEscape {
  Instruction *At;
  std::optional<int64_t> Offset;
};

/// Every FrameEscape of \p Frame.
SmallVector<FrameEscape, 8> collectFrameEscapes(AllocaInst *Frame) {
  const DataLayout &DL = Frame->getDataLayout();
  SmallVector<FrameEscape, 8> Escapes;
  SmallVector<std::pair<Value *, std::optional<int64_t>>, 16> Work = {
      {Frame, 0}};
  SmallPtrSet<Value *, 32> Seen = {Frame};
  while (!Work.empty()) {
    auto [Ptr, Offset] = Work.pop_back_val();
    for (Use &U : Ptr->uses()) {
      auto *I = cast<Instruction>(U.getUser());
      if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
        APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        std::optional<int64_t> Moved;
        if (Offset && GEP->accumulateConstantOffset(DL, Delta))
          Moved = *Offset + Delta.getSExtValue();
        if (Seen.insert(GEP).second)
          Work.push_back({GEP, Moved});
        continue;
      }
      if (isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back({I, Offset});
        continue;
      }
      bool IsAddress = (isa<LoadInst>(I) || isa<StoreInst>(I) ||
                        isa<MemSetInst>(I)) &&
                       U.getOperandNo() == (isa<StoreInst>(I) ? 1 : 0);
      if (!IsAddress || !accessedBytes(*I, Frame))
        Escapes.push_back({I, Offset});
    }
  }
  return Escapes;
}

/// The instructions that run before the frame escapes on some path from
/// the entry: those of a block reached from the entry through blocks
/// where it does not escape, up to its first escape.
class BeforeEscape {
public:
  BeforeEscape(Function &F, ArrayRef<FrameEscape> Escapes) {
    for (const FrameEscape &E : Escapes) {
      Instruction *&First = FirstEscape[E.At->getParent()];
      if (!First || E.At->comesBefore(First))
        First = E.At;
    }
    SmallVector<BasicBlock *, 16> Work = {&F.getEntryBlock()};
    Reached.insert(&F.getEntryBlock());
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (FirstEscape.count(BB))
        continue;
      for (BasicBlock *Succ : successors(BB))
        if (Reached.insert(Succ).second)
          Work.push_back(Succ);
    }
  }

  bool contains(Instruction *I) const {
    if (!Reached.count(I->getParent()))
      return false;
    auto It = FirstEscape.find(I->getParent());
    return It == FirstEscape.end() || I->comesBefore(It->second);
  }

private:
  DenseMap<BasicBlock *, Instruction *> FirstEscape;
  SmallPtrSet<BasicBlock *, 32> Reached;
};

/// Whether \p I is the stolen exit's wait for the slow clone, after which
/// the slow clone's stores to the frame are the ones to read.
bool isStolenExit(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == runtimeName(RuntimeFn::SpawnStolen);
}

/// Loads of a spilled value, on a path where the frame has not escaped,
/// take the value itself (see the top of this file). Those loads also
/// leave \p Uses.
void forwardSpills(AllocaInst *Frame, SmallVectorImpl<Instruction *> &Uses) {
  SmallVector<FrameEscape, 8> Escapes = collectFrameEscapes(Frame);
  // The runtime is handed the header, and reads and writes the header
  // only; a pointer to a slot handed to anyone could write it.
  if (any_of(Escapes, [](const FrameEscape &E) {
        return E.Offset != WEFT_FRAME_PROMISE_OFFSET;
      }))
    return;

  struct Access {
    Instruction *I;
    int64_t Begin, End;
  };
  SmallVector<Access, 16> Loads, Writes;
  for (Instruction *I : Uses)
    if (auto Bytes = accessedBytes(*I, Frame))
      (isa<LoadInst>(I) ? Loads : Writes)
          .push_back({I, Bytes->first, Bytes->second});

  Function &F = *Frame->getFunction();
  BeforeEscape Unescaped(F, Escapes);
  SmallVector<Instruction *, 2> StolenExits;
  for (const FrameEscape &E : Escapes)
    if (isStolenExit(*E.At))
      StolenExits.push_back(E.At);
  DominatorTree DT(F);

  // The value stored by the only store to \p Load's bytes, if that store
  // dominates it. Then the slot holds the value's current definition: the
  // value's definition dominates the store, so every path from it to the
  // load passes the store.
  auto storedOnce = [&](const Access &Load) -> Value * {
    const Access *Only = nullptr;
    for (const Access &W : Writes)
      if (W.Begin < Load.End && Load.Begin < W.End) {
        if (Only)
          return nullptr;
        Only = &W;
      }
    auto *Store = Only ? dyn_cast<StoreInst>(Only->I) : nullptr;
    if (!Store || !Store->isSimple() || Only->Begin != Load.Begin ||
        Only->End != Load.End ||
        Store->getValueOperand()->getType() != Load.I->getType() ||
        !DT.dominates(Store, Load.I))
      return nullptr;
    return Store->getValueOperand();
  };

  for (const Access &Load : Loads) {
    auto *LI = cast<LoadInst>(Load.I);
    if (!LI->isSimple() || Load.Begin < SlotsBegin ||
        !Unescaped.contains(LI) ||
        any_of(StolenExits, [&](Instruction *Exit) {
          return isPotentiallyReachable(Exit, LI, nullptr, &DT);
        }))
      continue;
    if (Value *V = storedOnce(Load)) {
      LI->replaceAllUsesWith(V);
      erase(Uses, LI);
      LI->eraseFromParent();
      ++NumForwardedSpills;
    }
  }
}

} // namespace

bool sinkFrameInitialization(AllocaInst *Frame) {
  Function &F = *Frame->getFunction();
  BasicBlock &Entry = F.getEntryBlock();
  if (Frame->getParent() != &Entry)
    return false;
  // Before the uses are collected: it drops the blocks it leaves dead.
  demoteRethrowingInvokes(F, Frame);
  SmallVector<Instruction *, 32> Uses;
  collectFrameUses(Frame, Uses);
  dropDestroyPointer(Frame, Uses);
  dropEscapeMarkers(Frame, Uses);
  forwardSpills(Frame, Uses);

  // The initialisations: the escape markers, and the entry block's plain
  // stores and memsets into the frame, with the bytes they write.
  SmallVector<Instruction *, 16> Inits;
  SmallPtrSet<Instruction *, 16> IsInit;
  SmallVector<std::pair<int64_t, int64_t>, 16> Written;
  for (Instruction *I : Uses) {
    if (I->getParent() != &Entry)
      continue;
    auto Bytes = accessedBytes(*I, Frame);
    bool Writes = Bytes && !isa<LoadInst>(I) && !I->isVolatile();
    if (!Writes && !isEscapeMarker(*I))
      continue;
    Inits.push_back(I);
    IsInit.insert(I);
    if (Writes)
      Written.push_back(*Bytes);
  }
  // What they must come before: any use that lets the frame escape, and any
  // load or store of bytes they write. Others (a slot the function uses for
  // itself only, such as its return value on the way out) do not care.
  SmallVector<Instruction *, 16> Others;
  SmallPtrSet<Instruction *, 16> IsOther;
  for (Instruction *I : Uses) {
    if (IsInit.count(I))
      continue;
    auto Bytes = accessedBytes(*I, Frame);
    bool Disjoint = Bytes && none_of(Written, [&](auto W) {
      return Bytes->first < W.second && W.first < Bytes->second;
    });
    if (!Disjoint) {
      Others.push_back(I);
      IsOther.insert(I);
    }
  }
  if (Inits.empty() || Others.empty())
    return false;

  DominatorTree DT(F);
  LoopInfo LI(DT);
  BasicBlock *Target = Others.front()->getParent();
  for (Instruction *I : Others)
    Target = DT.findNearestCommonDominator(Target, I->getParent());
  // Once per call, not once per iteration.
  while (Target && Target != &Entry && LI.getLoopFor(Target))
    Target = DT.getNode(Target)->getIDom()->getBlock();
  if (!Target || Target == &Entry)
    return false;

  // At the top of the block, or before the first use there: where they
  // stood before the forwarding, which the backend's register assignment
  // has been tuned to (at the branch, fib's leaf copies its result before
  // its test instead of after).
  Instruction *Before = &*Target->getFirstInsertionPt();
  for (Instruction &I : *Target)
    if (IsOther.count(&I)) {
      Before = &I;
      break;
    }
  if (isa<PHINode>(Before) || Before->isEHPad())
    return false;
  // Their address arithmetic stays in the entry block, which dominates.
  sort(Inits, [](Instruction *A, Instruction *B) { return A->comesBefore(B); });
  for (Instruction *I : Inits)
    compat::moveBefore(I, Before);
  NumSunkInits += Inits.size();
  return true;
}

/// The store of a function's name into the frame \p Mem whose name ends
/// in \p Suffix, if \p I is one (coro-split's resume and destroy pointers).
static bool storesClonePointer(Instruction &I, Value *Mem, StringRef Suffix) {
  auto *SI = dyn_cast<StoreInst>(&I);
  return SI && isa<Function>(SI->getValueOperand()) &&
         SI->getValueOperand()->getName().ends_with(Suffix) &&
         getUnderlyingObject(SI->getPointerOperand()) == Mem;
}

bool sinkResumePointers(Module &M) {
  Function *Alloc = M.getFunction(FrameAllocName);
  Function *Push = M.getFunction(runtimeName(RuntimeFn::Push));
  if (!Alloc)
    return false;
  bool Changed = false;
  for (User *U : Alloc->users()) {
    auto *Mem = dyn_cast<CallInst>(U);
    if (!Mem || Mem->getCalledFunction() != Alloc)
      continue;
    Function &F = *Mem->getFunction();
    SmallVector<Instruction *, 2> Resumes, Destroys;
    SmallVector<CallInst *, 4> Pushes;
    for (Instruction &I : instructions(F)) {
      if (storesClonePointer(I, Mem, ".resume"))
        Resumes.push_back(&I);
      else if (storesClonePointer(I, Mem, ".destroy"))
        Destroys.push_back(&I);
      else if (auto *CI = dyn_cast<CallInst>(&I);
               CI && Push && CI->getCalledFunction() == Push &&
               getUnderlyingObject(CI->getArgOperand(0)) == Mem)
        Pushes.push_back(CI);
    }
    if (Resumes.size() != 1)
      continue;
    Instruction *Resume = Resumes.front();
    if (Pushes.empty()) {
      // Nothing can resume this frame, nor destroy it.
      for (Instruction *Store : Destroys)
        Store->eraseFromParent();
      Resume->eraseFromParent();
      Changed = true;
      continue;
    }
    DominatorTree DT(F);
    LoopInfo LI(DT);
    BasicBlock *Target = Pushes.front()->getParent();
    for (CallInst *P : Pushes)
      Target = DT.findNearestCommonDominator(Target, P->getParent());
    // Once per call, not once per iteration.
    while (Target && Target != &F.getEntryBlock() && LI.getLoopFor(Target))
      Target = DT.getNode(Target)->getIDom()->getBlock();
    if (!Target || !DT.dominates(Mem, Target->getTerminator()))
      continue;
    Instruction *Before = Target->getTerminator();
    for (CallInst *P : Pushes)
      if (P->getParent() == Target && P->comesBefore(Before))
        Before = P;
    if (isa<PHINode>(Before) || Before->isEHPad() ||
        !DT.dominates(Resume->getOperand(1), Before))
      continue;
    compat::moveBefore(Resume, Before);
    Changed = true;
  }
  return Changed;
}

} // namespace weft
