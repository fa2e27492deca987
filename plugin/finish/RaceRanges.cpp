//===- RaceRanges.cpp - One detector call for a straight run of accesses ===//
//
// In race mode ThreadSanitizer's instrumentation, which runs after this
// step, calls the detector once per load and store. An unrolled,
// vectorized loop body makes that a call per 16 bytes: a 32-element row
// of doubles read, updated and written back costs 48 calls, each a full
// check, against a dozen vector instructions of the program's own.
//
// But between two hooks every access belongs to one strand, and the
// detector's verdict on a strand's accesses does not depend on their
// order among themselves: a race is a pair of accesses of two logically
// parallel strands, and no access of another strand, no hook and no free
// can come between two accesses with no call between them. So, in each
// basic block, the accesses of a run that no call or atomic operation
// interrupts are gathered by base pointer, kind (read or write) and
// source location, and each group's adjacent or overlapping accesses
// become one range check, of exactly the bytes they touch:
//
//   %a1 = getelementptr i8, ptr %row, i64 16
//   %v0 = load <2 x double>, ptr %row, !dbg !7
//   %v1 = load <2 x double>, ptr %a1, !dbg !7
//   store <2 x double> %w0, ptr %row, !dbg !7
//   store <2 x double> %w1, ptr %a1, !dbg !7
//     ==>
//   call void @__weft_race_read_range(ptr %row, i64 32), !dbg !7
//   %v0 = load <2 x double>, ptr %row, !dbg !7, !nosanitize
//   %v1 = load <2 x double>, ptr %a1, !dbg !7, !nosanitize
//   store <2 x double> %w0, ptr %row, !dbg !7, !nosanitize
//   call void @__weft_race_write_range(ptr %row, i64 32), !dbg !7
//   store <2 x double> %w1, ptr %a1, !dbg !7, !nosanitize
//
// A group's reads are checked where its first read was, its writes where
// its last write was: every read of the run before any write, so that a
// read is checked against other strands' writes before the strand's own
// write takes the bytes over (the order that reports most pairs). The
// call has its group's source location, so a report names the same line
// and column as the accesses' own calls would have. An access that TSan
// would leave out (a stack slot whose address does not escape, a
// constant, one already marked !nosanitize, such as a frame's own field
// hidden by RaceFrame.cpp) is left alone, as are atomic and volatile
// accesses, which TSan reports by their own calls.
//
// A group of one access is left to TSan too, unless TSan has no call for
// its size: it checks accesses of 1, 2, 4, 8 and 16 bytes only, and skips
// the rest, AVX's 32-byte vectors and AVX-512's 64-byte ones among them
// (a loop vectorized for -mavx2 that the optimizer did not unroll, or a
// masked store whose mask is all on, which InstCombine makes a plain
// store). Such an access is a range check of its own.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/LLVMCompat.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <tuple>

#define DEBUG_TYPE "weft-race-ranges"

using namespace llvm;

STATISTIC(NumRangeChecks, "Range checks that replace access checks");
STATISTIC(NumAccessesCovered, "Accesses checked by a range check");

namespace weft {
namespace {

/// A load or store that a range check may cover: its base pointer, its
/// bytes from the base, and its kind.
struct Access {
  Instruction *Inst;
  Value *Base;
  int64_t Offset;
  uint64_t Bytes;
  bool Write;
};

/// Whether \p Object is a stack slot whose address never escapes, or
/// constant memory: ThreadSanitizer does not instrument its accesses, and
/// neither does a range check. The answers about slots are kept in
/// \p Escapes, one walk of each slot's uses per function.
bool leftOutByTSan(const Value *Object, bool Write,
                   DenseMap<const Value *, bool> &Escapes) {
  if (const auto *Slot = dyn_cast<AllocaInst>(Object)) {
    auto [It, New] = Escapes.try_emplace(Slot, false);
    if (New)
      It->second = compat::mayBeCaptured(Slot, /*ReturnCaptures=*/true);
    return !It->second;
  }
  if (const auto *Global = dyn_cast<GlobalVariable>(Object))
    return !Write && Global->isConstant();
  return false;
}

/// \p I as an access a range check may cover, if it is one.
std::optional<Access> coverableAccess(Instruction &I, const DataLayout &DL,
                                      DenseMap<const Value *, bool> &Escapes) {
  Value *Pointer;
  Type *Ty;
  bool Write;
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    if (!Load->isSimple())
      return std::nullopt;
    Pointer = Load->getPointerOperand();
    Ty = Load->getType();
    Write = false;
  } else if (auto *Store = dyn_cast<StoreInst>(&I)) {
    if (!Store->isSimple())
      return std::nullopt;
    Pointer = Store->getPointerOperand();
    Ty = Store->getValueOperand()->getType();
    Write = true;
  } else {
    return std::nullopt;
  }
  if (I.hasMetadata(LLVMContext::MD_nosanitize) ||
      Pointer->getType()->getPointerAddressSpace() != 0)
    return std::nullopt;
  TypeSize Size = DL.getTypeStoreSize(Ty);
  if (Size.isScalable() || Size.getFixedValue() == 0)
    return std::nullopt;
  if (leftOutByTSan(getUnderlyingObject(Pointer), Write, Escapes))
    return std::nullopt;
  int64_t Offset = 0;
  Value *Base = GetPointerBaseWithConstantOffset(Pointer, Offset, DL);
  return Access{&I, Base, Offset, Size.getFixedValue(), Write};
}

/// Whether \p I ends a run: anything the detector hears of by a call of
/// its own (a hook, an allocation, an atomic operation) or that may
/// change what memory means (a free, a dead slot).
bool endsRun(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I))
    return !isa<IntrinsicInst>(Call) || Call->mayReadOrWriteMemory() ||
           Call->mayHaveSideEffects();
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isAtomic();
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isAtomic();
  return I.isAtomic() || isa<FenceInst>(I);
}

/// Accesses of one base pointer, kind and source location, in program
/// order.
using GroupKey = std::tuple<Value *, unsigned, DILocation *>;

/// Whether ThreadSanitizer has a call for an access of \p Bytes.
bool tsanChecksSize(uint64_t Bytes) {
  return Bytes <= 16 && isPowerOf2_64(Bytes);
}

/// Replaces the checks of \p Members' accesses, sorted by offset, that
/// form one contiguous range with one range check: of two or more, or of
/// one that ThreadSanitizer would not check.
bool checkAsOneRange(ArrayRef<Access *> Members, Module &M) {
  if (Members.size() < 2 && tsanChecksSize(Members.front()->Bytes))
    return false;
  const Access &First = *Members.front();
  int64_t Low = First.Offset;
  int64_t High = Low;
  for (const Access *A : Members)
    High = std::max(High, A->Offset + int64_t(A->Bytes));
  // Reads where the first of them was, writes where the last was (the
  // members are in offset order here; their program order is their
  // instructions').
  auto ProgramOrder = [](const Access *A, const Access *B) {
    return A->Inst->comesBefore(B->Inst);
  };
  Instruction *Where =
      First.Write
          ? (*std::max_element(Members.begin(), Members.end(), ProgramOrder))
                ->Inst
          : (*std::min_element(Members.begin(), Members.end(), ProgramOrder))
                ->Inst;
  IRBuilder<> B(Where);
  Value *Start =
      Low ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), First.Base, Low)
          : First.Base;
  CallInst *Check = B.CreateCall(
      getRuntimeFunction(M, First.Write ? RuntimeFn::RaceWriteRange
                                        : RuntimeFn::RaceReadRange),
      {Start, B.getInt64(uint64_t(High - Low))});
  Check->setDebugLoc(First.Inst->getDebugLoc());
  MDNode *Empty = MDNode::get(M.getContext(), {});
  for (const Access *A : Members)
    A->Inst->setMetadata(LLVMContext::MD_nosanitize, Empty);
  ++NumRangeChecks;
  NumAccessesCovered += Members.size();
  return true;
}

/// One range check per contiguous stretch of each group of \p Run.
bool checkRunAsRanges(SmallVectorImpl<Access> &Run, Module &M) {
  if (Run.empty())
    return false;
  SmallDenseMap<GroupKey, SmallVector<Access *, 8>, 8> Groups;
  SmallVector<GroupKey, 8> Order; // deterministic output
  for (Access &A : Run) {
    GroupKey Key{A.Base, unsigned(A.Write), A.Inst->getDebugLoc().get()};
    auto [It, New] = Groups.try_emplace(Key);
    if (New)
      Order.push_back(Key);
    It->second.push_back(&A);
  }
  bool Changed = false;
  for (const GroupKey &Key : Order) {
    SmallVector<Access *, 8> &Group = Groups[Key];
    llvm::stable_sort(Group, [](const Access *A, const Access *B) {
      return A->Offset < B->Offset;
    });
    // Split where a gap opens between one access's end and the next one's
    // start.
    size_t Begin = 0;
    int64_t End = Group[0]->Offset;
    for (size_t I = 0; I <= Group.size(); ++I) {
      if (I == Group.size() || Group[I]->Offset > End) {
        Changed |= checkAsOneRange(ArrayRef(Group).slice(Begin, I - Begin), M);
        Begin = I;
      }
      if (I < Group.size())
        End = std::max(End, Group[I]->Offset + int64_t(Group[I]->Bytes));
    }
  }
  return Changed;
}

bool checkBlockAsRanges(BasicBlock &BB, Module &M,
                        DenseMap<const Value *, bool> &Escapes) {
  const DataLayout &DL = M.getDataLayout();
  bool Changed = false;
  SmallVector<Access, 32> Run;
  for (Instruction &I : BB) {
    if (endsRun(I)) {
      Changed |= checkRunAsRanges(Run, M);
      Run.clear();
    } else if (std::optional<Access> A = coverableAccess(I, DL, Escapes)) {
      Run.push_back(*A);
    }
  }
  Changed |= checkRunAsRanges(Run, M);
  return Changed;
}

} // namespace

bool checkAccessRunsAsRanges(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread))
      continue;
    DenseMap<const Value *, bool> Escapes;
    for (BasicBlock &BB : F)
      Changed |= checkBlockAsRanges(BB, M, Escapes);
  }
  return Changed;
}

} // namespace weft
