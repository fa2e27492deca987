//===- RaceFrame.cpp - Keep the coroutine frame out of the race detector --===//
//
// In race mode clang runs ThreadSanitizer's instrumentation after every
// Weft pass: both are added at the end of the optimisation pipeline, and
// the plugin's callback is registered before clang adds the sanitizers, so
// the order is weft-finish, then tsan-module and tsan, at -O0 and at -O2
// alike (Pipeline.cpp). TSan thus sees the split coroutines, and without
// this step it instruments the loads and stores that coro-split and the
// lowering make in each frame: the resume and destroy pointers, the resume
// index, the WeftFrame (the promise), and the spill slots of the values
// that live across a spawn, such as the analysis's record index. Those are
// not the program's accesses, and some of them sit between a spawn's hook
// and its continuation's (a spill reloaded after the child returned), so
// that the detector would count them as the child's and report the next
// spawn's store to the same slot as a race.
//
// So in race mode this step puts !nosanitize, which TSan skips, on every
// load, store and memory intrinsic whose address is a constant offset into
// the frame, or one of a few such addresses chosen by phis, selects, or a
// GEP whose index is one of a few constants, and that touches only frame
// fields (the frame's layout is coro-split's `<function>.Frame` type)
// whose address no clone of the coroutine takes: the header, the index
// and the spills, which only the clones themselves read and write. A
// field whose address goes anywhere else in any clone (a call, a store, a
// phi with other addresses, an index known only at run time) is one of
// the program's own variables, passed by pointer, and its accesses stay
// instrumented; the program's variables whose address is never taken stay
// uninstrumented, as TSan leaves any such alloca. The
// promise is the runtime's WeftFrame, whose address the lowering passes to
// the runtime: its field is the frame's own whatever its uses.
//
// The other way round, TSan leaves out an access whose address is an
// alloca, or a GEP of one, that does not itself escape. The fast clone's
// frame is an alloca (FrameToStack.cpp), and coro-split gives each use of
// a frame field a GEP of its own: the program's `x = 2` next to a
// `cilk_spawn set(&x)` would go unchecked because its own GEP does not
// escape. So the fast clone's frame is passed through an empty asm, which
// TSan cannot see through, and every access to it that is not marked is
// instrumented.
//
// The fast path is not inlined under TSan (FastPath.cpp), so no access of
// the runtime's own is instrumented either.
//
// The frame is the fast clone's entry-block alloca (FrameToStack.cpp),
// known by the store of `<function>.resume` at its start, and the first
// argument of the .resume, .destroy and .cleanup clones.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include "weft/frame_abi.h"

#define DEBUG_TYPE "weft-race-frame"

using namespace llvm;

STATISTIC(NumHidden, "Frame accesses hidden from ThreadSanitizer");

namespace weft {
namespace {

/// One memory access at a constant offset into a frame.
struct FrameAccess {
  Instruction *I;
  uint64_t Offset;
  uint64_t Size; // 0: unknown
};

/// What the code does with one frame: its accesses, and the offsets whose
/// address it lets go elsewhere.
struct FrameUses {
  Value *Base = nullptr; // the frame: a clone's argument, or the alloca
  SmallVector<FrameAccess, 32> Accesses;
  SmallVector<uint64_t, 8> Taken;
  bool Opaque = false; // an address left the frame at an unknown offset
  // Phis, selects and GEPs of field addresses already followed, by offset.
  DenseSet<std::pair<Value *, uint64_t>> Merged;
};

uint64_t storeSize(const DataLayout &DL, Type *Ty) {
  return DL.getTypeStoreSize(Ty).getKnownMinValue();
}

/// How many addresses one access through merged frame addresses may take,
/// and how many (address, offset) pairs are followed to find them: more
/// than a few spill slots is a walk through the frame (a pointer that a
/// loop advances), and its fields count as the program's.
constexpr unsigned kMostOffsets = 64;
constexpr unsigned kMostSteps = 256;

/// The values a phi or a select chooses from.
SmallVector<Value *, 4> choicesOf(Instruction *Merge) {
  if (auto *Phi = dyn_cast<PHINode>(Merge))
    return SmallVector<Value *, 4>(Phi->incoming_values());
  return {Merge->getOperand(1), Merge->getOperand(2)};
}

/// The constants \p V may be, if it is one or a phi or select of such
/// values (an index that InstCombine made of a phi of two GEPs).
bool constantChoices(Value *V, SmallVectorImpl<APInt> &Values,
                     SmallPtrSetImpl<Value *> &Seen) {
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    Values.push_back(C->getValue());
    return Values.size() <= kMostOffsets;
  }
  if (!isa<PHINode, SelectInst>(V))
    return false;
  if (!Seen.insert(V).second)
    return true;
  for (Value *Choice : choicesOf(cast<Instruction>(V)))
    if (!constantChoices(Choice, Values, Seen))
      return false;
  return true;
}

/// The offsets into the frame \p Uses.Base that the address \p Address
/// may be, if every one is the frame plus a constant, back through constant
/// GEPs, phis, selects, and GEPs whose index is a phi or select of
/// constants. The optimizer makes a loop's reloads of its variable from
/// two spill slots one load through a phi of the slots' addresses; a
/// landing pad that joins the cleanups of several spawns reloads a vector's
/// pointers through a phi of such phis, or, once InstCombine has folded a
/// phi of GEPs of the frame, through a GEP of the frame by a phi of the
/// slots' offsets. Counted as an address let go, either made every slot it
/// reached the program's, and its spill reloads stayed instrumented: those
/// at a continuation's start come before its __weft_race_continue hook, so
/// the detector counted them as the child's, and the parent's next spill
/// to the slot as racing with them (random campaign, seed 140789).
bool frameOffsets(Value *Address, const DataLayout &DL, const FrameUses &Uses,
                  SmallVectorImpl<uint64_t> &Offsets) {
  unsigned Bits = DL.getIndexTypeSizeInBits(Address->getType());
  // Each step: an address, and the offset the way to it added. A way
  // round a loop that adds nothing comes back to a step already taken.
  DenseSet<std::pair<Value *, int64_t>> Steps;
  SmallVector<std::pair<Value *, APInt>, 8> Work{{Address, APInt(Bits, 0)}};
  while (!Work.empty()) {
    auto [V, Shift] = Work.pop_back_val();
    if (!Steps.insert({V, Shift.getSExtValue()}).second)
      continue;
    if (Steps.size() > kMostSteps)
      return false;
    APInt Delta(Bits, 0);
    V = V->stripAndAccumulateConstantOffsets(DL, Delta, true);
    Shift += Delta;
    if (V == Uses.Base) {
      if (Shift.isNegative())
        return false;
      Offsets.push_back(Shift.getZExtValue());
      continue;
    }
    if (isa<PHINode, SelectInst>(V)) {
      for (Value *Choice : choicesOf(cast<Instruction>(V)))
        Work.push_back({Choice, Shift});
      continue;
    }
    // An address plus one index that is one of a few constants.
    auto *GEP = dyn_cast<GEPOperator>(V);
    if (!GEP || GEP->getNumIndices() != 1)
      return false;
    TypeSize Stride = DL.getTypeAllocSize(GEP->getSourceElementType());
    SmallVector<APInt, 8> Indices;
    SmallPtrSet<Value *, 8> Seen;
    if (Stride.isScalable() ||
        !constantChoices(GEP->getOperand(1), Indices, Seen))
      return false;
    for (const APInt &Index : Indices)
      Work.push_back(
          {GEP->getPointerOperand(),
           Shift + Index.sextOrTrunc(Bits) * Stride.getFixedValue()});
  }
  llvm::sort(Offsets);
  Offsets.erase(std::unique(Offsets.begin(), Offsets.end()), Offsets.end());
  return Offsets.size() <= kMostOffsets;
}

/// Follows \p Ptr (the frame plus \p Offset) through constant GEPs, and
/// phis, selects and GEPs that choose among such addresses
/// (frameOffsets()), to the instructions that use it.
void collectUses(Value *Ptr, uint64_t Offset, const DataLayout &DL,
                 FrameUses &Uses) {
  for (Use &U : Ptr->uses()) {
    auto *User = U.getUser();
    auto *GEP = dyn_cast<GEPOperator>(User);
    if (GEP && GEP->getPointerOperand() == Ptr) {
      APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (GEP->accumulateConstantOffset(DL, Delta) && !Delta.isNegative()) {
        collectUses(GEP, Offset + Delta.getZExtValue(), DL, Uses);
        continue;
      }
    }
    // A phi or select of field addresses, or a GEP of one by a run-time
    // index that is one of a few constants: each access through it may
    // touch any of the fields it may address. Any other run-time index is
    // an array's, the program's.
    if (isa<GetElementPtrInst, PHINode>(User) ||
        (isa<SelectInst>(User) && U.getOperandNo() != 0)) {
      SmallVector<uint64_t, 8> Offsets;
      if (!frameOffsets(User, DL, Uses, Offsets)) {
        Uses.Taken.push_back(Offset);
        continue;
      }
      for (uint64_t Each : Offsets)
        if (Uses.Merged.insert({User, Each}).second)
          collectUses(User, Each, DL, Uses);
      continue;
    }
    if (GEP) {
      Uses.Taken.push_back(Offset);
      continue;
    }
    if (auto *Load = dyn_cast<LoadInst>(User)) {
      Uses.Accesses.push_back(
          {Load, Offset, storeSize(DL, Load->getType())});
      continue;
    }
    if (auto *Store = dyn_cast<StoreInst>(User)) {
      if (U.getOperandNo() == StoreInst::getPointerOperandIndex()) {
        Uses.Accesses.push_back(
            {Store, Offset, storeSize(DL, Store->getValueOperand()->getType())});
        continue;
      }
      Uses.Taken.push_back(Offset); // the address itself is stored
      continue;
    }
    if (auto *Mem = dyn_cast<MemIntrinsic>(User)) {
      // A copy between the frame and other memory is also an access to
      // that memory, which may be the program's: it stays instrumented.
      // Either way the address is only read or written, not kept.
      auto *Len = dyn_cast<ConstantInt>(Mem->getLength());
      auto *Copy = dyn_cast<MemTransferInst>(Mem);
      bool Within = !Copy || (getUnderlyingObject(Copy->getSource()) ==
                                  getUnderlyingObject(Copy->getDest()));
      Uses.Accesses.push_back(
          {Mem, Offset, Len && Within ? Len->getZExtValue() : 0});
      continue;
    }
    // Lifetime markers say when the frame's stack slot is live; they
    // neither read nor keep the address.
    if (auto *II = dyn_cast<IntrinsicInst>(User);
        II && II->isLifetimeStartOrEnd())
      continue;
    if (isa<Instruction>(User))
      Uses.Taken.push_back(Offset);
    else
      Uses.Opaque = true;
  }
}

/// Marks the accesses of a frame laid out as \p Layout (\p Uses, the
/// code's) that stay within one field whose address the code never takes.
bool hideFrame(const FrameUses &Uses, StructType *Layout, const DataLayout &DL,
               LLVMContext &C) {
  if (Uses.Opaque)
    return false;
  const StructLayout *SL = DL.getStructLayout(Layout);
  uint64_t FrameSize = SL->getSizeInBytes();
  auto fieldOf = [&](uint64_t Offset) -> int {
    if (Offset >= FrameSize)
      return -1;
    return SL->getElementContainingOffset(Offset);
  };
  SmallVector<bool, 16> Taken(Layout->getNumElements(), false);
  for (uint64_t Offset : Uses.Taken) {
    int Field = fieldOf(Offset);
    if (Field < 0)
      return false; // an address past the layout: trust nothing
    Taken[Field] = true;
  }
  // The promise: the runtime's WeftFrame, whose address is the lowering's
  // argument to every runtime call, and whose fields only the lowering and
  // the runtime touch.
  if (int Promise = fieldOf(WEFT_FRAME_PROMISE_OFFSET); Promise >= 0)
    Taken[Promise] = false;

  bool Changed = false;
  MDNode *Empty = MDNode::get(C, {});
  // An access may span fields: the SLP vectorizer joins the spills of two
  // adjacent values into one 16-byte load or store.
  auto ownFields = [&](const FrameAccess &A) {
    int First = fieldOf(A.Offset), Last = fieldOf(A.Offset + A.Size - 1);
    if (A.Size == 0 || First < 0 || Last < 0)
      return false;
    for (int Field = First; Field <= Last; ++Field)
      if (Taken[Field])
        return false;
    return true;
  };
  // An access through a phi of field addresses is listed once for each
  // field it may touch, and hidden only if every one is the frame's own.
  DenseMap<Instruction *, bool> Hidden;
  for (const FrameAccess &A : Uses.Accesses) {
    auto [It, New] = Hidden.try_emplace(A.I, true);
    It->second &= ownFields(A);
  }
  for (const FrameAccess &A : Uses.Accesses) {
    if (!Hidden.lookup(A.I) || A.I->hasMetadata(LLVMContext::MD_nosanitize))
      continue;
    A.I->setMetadata(LLVMContext::MD_nosanitize, Empty);
    ++NumHidden;
    Changed = true;
  }
  return Changed;
}

/// The frame type of the coroutine called \p Coroutine, if coro-split made
/// one.
StructType *frameLayout(Module &M, StringRef Coroutine) {
  if (Coroutine.empty())
    return nullptr;
  return StructType::getTypeByName(M.getContext(),
                                   (Coroutine + ".Frame").str());
}

/// The coroutine whose frame an alloca with \p Uses is: the function whose
/// .resume clone its first word holds; empty if it is no frame.
StringRef coroutineOfFrame(const FrameUses &Uses) {
  for (const FrameAccess &A : Uses.Accesses)
    if (auto *Store = dyn_cast<StoreInst>(A.I); Store && A.Offset == 0)
      if (auto *Resume = dyn_cast<Function>(Store->getValueOperand()))
        if (Resume->getName().ends_with(".resume"))
          return Resume->getName().drop_back(strlen(".resume"));
  return {};
}

/// ThreadSanitizer leaves out any access whose address is an alloca, or a
/// GEP of one, that does not itself escape: right for a variable of the
/// program's own, but a frame field's address may escape through another
/// GEP, in this clone or another, while this one does not. Behind an empty
/// asm the frame is no alloca to it, and every access to the frame that
/// is not marked above is instrumented.
void launderFrameSlot(AllocaInst &Slot) {
  auto *PtrTy = Slot.getType();
  auto *Asm = InlineAsm::get(FunctionType::get(PtrTy, {PtrTy}, false), "",
                             "=r,0", /*hasSideEffects=*/false);
  auto *Frame = CallInst::Create(Asm, {&Slot}, "", std::next(Slot.getIterator()));
  Frame->setDoesNotThrow();
  Slot.replaceUsesWithIf(Frame, [Frame](Use &U) {
    if (U.getUser() == Frame)
      return false;
    auto *II = dyn_cast<IntrinsicInst>(U.getUser());
    return !II || !II->isLifetimeStartOrEnd();
  });
}

} // namespace

bool hideFramesFromSanitizer(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  // Every frame of every clone, by coroutine: a field whose address one
  // clone takes is the program's in all of them.
  struct Site {
    AllocaInst *Slot; // the fast clone's frame, or null for an argument
    FrameUses Uses;
  };
  MapVector<StructType *, SmallVector<Site, 4>> Coroutines;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread))
      continue;
    // The slow clones: the frame is their argument.
    for (StringRef Suffix : {".resume", ".destroy", ".cleanup"})
      if (F.getName().ends_with(Suffix) && F.arg_size() >= 1)
        if (StructType *Layout =
                frameLayout(M, F.getName().drop_back(Suffix.size()))) {
          Site S{nullptr, {}};
          S.Uses.Base = F.getArg(0);
          collectUses(F.getArg(0), 0, DL, S.Uses);
          Coroutines[Layout].push_back(std::move(S));
        }
    // The fast clones, and the callers they were inlined into: the frame is
    // an alloca of the entry block (FrameToStack.cpp).
    for (Instruction &I : F.getEntryBlock())
      if (auto *Slot = dyn_cast<AllocaInst>(&I)) {
        Site S{Slot, {}};
        S.Uses.Base = Slot;
        collectUses(Slot, 0, DL, S.Uses);
        if (StructType *Layout = frameLayout(M, coroutineOfFrame(S.Uses)))
          Coroutines[Layout].push_back(std::move(S));
      }
  }

  LLVMContext &C = M.getContext();
  bool Changed = false;
  for (auto &[Layout, Sites] : Coroutines) {
    FrameUses All;
    for (const Site &S : Sites) {
      All.Taken.append(S.Uses.Taken.begin(), S.Uses.Taken.end());
      All.Opaque |= S.Uses.Opaque;
    }
    for (Site &S : Sites) {
      S.Uses.Taken = All.Taken;
      S.Uses.Opaque = All.Opaque;
      Changed |= hideFrame(S.Uses, Layout, DL, C);
    }
    for (const Site &S : Sites)
      if (S.Slot) {
        launderFrameSlot(*S.Slot);
        Changed = true;
      }
  }
  return Changed;
}

} // namespace weft
