//===- RaceVectorAccesses.cpp - Masked and indexed accesses, lane by lane -===//
//
// ThreadSanitizer's pass, which instruments race mode's modules after this
// step, knows loads, stores, atomics and the memory intrinsics only. A
// gather, a scatter, a masked load or store is a call of an intrinsic to
// it, and it leaves it alone: the AVX and AVX2 ones a program calls through
// <immintrin.h> (_mm256_i32gather_epi32 is llvm.x86.avx2.gather.d.d.256,
// _mm256_maskstore_epi32 llvm.x86.avx2.maskstore.d.256), the AVX-512
// gathers and scatters, and the generic llvm.masked.* that the loop
// vectorizer makes of a conditional loop and InstCombine of an x86 masked
// load or store whose mask it can see. At -O0 and -O2 alike their accesses
// would be invisible to the detector: a spawned gather from an array that
// the continuation writes would race unreported.
//
// So in race mode each of them gets a check per lane, before it, of the
// element that lane reads or writes, taken only when the lane is on: for
// the generic intrinsics, when its i1 in the mask is set; for the x86
// ones, when the sign bit of its mask element is (which is what the
// instruction looks at). A gather's lane reads base + index * scale, a
// masked load's the lane's element from the pointer on. The checks are
// the detector's own range checks (runtime/analysis/race/tsan_entries.cpp)
// of the element's bytes, with the intrinsic's source location, so that a
// report names its line; ThreadSanitizer does not instrument calls, so
// they are checked once:
//
//   %v = call <8 x i32> @llvm.x86.avx2.gather.d.d.256(<8 x i32> %src,
//            ptr @table, <8 x i32> %index, <8 x i32> %mask, i8 4), !dbg !7
//     ==>
//   %m0 = extractelement <8 x i32> %mask, i64 0
//   %on0 = icmp slt i32 %m0, 0
//   br i1 %on0, label %check0, label %lane1
// check0:
//   %i0 = extractelement <8 x i32> %index, i64 0
//   %o0 = mul i64 (sext i32 %i0 to i64), 4
//   %a0 = getelementptr i8, ptr @table, i64 %o0
//   call void @__weft_race_read_range(ptr %a0, i64 4), !dbg !7
//   br label %lane1
// lane1:
//   ... lanes 1 to 7 alike ...
//   %v = call <8 x i32> @llvm.x86.avx2.gather.d.d.256(...), !dbg !7, !nosanitize
//
// A lane whose mask bit is a constant costs no branch (a constant off, no
// check at all), and a masked load or store of consecutive elements whose
// mask is all on is one range check of the whole vector. An expanding load
// or compressing store (AVX-512) reads or writes as many consecutive
// elements as its mask has lanes on: one range check of that many.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/LLVMCompat.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>
#include <optional>

#define DEBUG_TYPE "weft-race-vector-accesses"

using namespace llvm;

STATISTIC(NumVectorAccesses, "Masked, gather and scatter accesses checked");
STATISTIC(NumLaneChecks, "Per-lane checks emitted for them");

namespace weft {
namespace {

/// Where a vector access's lane finds its element.
enum class LaneAddressing {
  Consecutive,   // lane i at Pointer + i * element size
  PointerVector, // lane i at the i-th pointer of a vector of them
  BaseIndex,     // lane i at Pointer + sext(Index[i]) * Scale
  Packed,        // the lanes on take consecutive elements from Pointer
};

/// How a mask turns a lane on.
enum class MaskBit {
  Boolean, // an <N x i1> mask: the lane's bit
  Sign,    // an x86 mask of integers or floats: the element's sign bit
};

/// One intrinsic's accesses, as lanes: which are on and where each one's
/// element is.
struct VectorAccess {
  IntrinsicInst *Call;
  bool Write;
  LaneAddressing Addressing;
  Value *Address; // a pointer, or a vector of them (PointerVector)
  Value *Index;   // BaseIndex only
  uint64_t Scale; // BaseIndex only
  Value *Mask;
  MaskBit Bit;
  unsigned Lanes;
  uint64_t ElementBytes;
};

unsigned lanesOf(const Value *V) {
  return cast<FixedVectorType>(V->getType())->getNumElements();
}

/// The bytes of an element of vector type \p Ty.
uint64_t elementBytes(Type *Ty, const DataLayout &DL) {
  return DL.getTypeStoreSize(cast<VectorType>(Ty)->getElementType())
      .getFixedValue();
}

VectorAccess consecutive(IntrinsicInst &II, bool Write, Value *Pointer,
                         Type *DataTy, Value *Mask, MaskBit Bit,
                         const DataLayout &DL) {
  return {&II, Write, LaneAddressing::Consecutive, Pointer, nullptr, 0, Mask,
          Bit, lanesOf(Mask), elementBytes(DataTy, DL)};
}

/// The generic llvm.masked.* intrinsics.
std::optional<VectorAccess> describeGeneric(IntrinsicInst &II,
                                            const DataLayout &DL) {
  auto Arg = [&](unsigned I) { return II.getArgOperand(I); };
  VectorAccess A{&II, false, LaneAddressing::Consecutive, nullptr, nullptr,
                 0, nullptr, MaskBit::Boolean, 0, 0};
  Type *DataTy;
  switch (II.getIntrinsicID()) {
  case Intrinsic::masked_load: // (ptr, [align,] mask, passthru)
    A.Address = Arg(0), A.Mask = compat::maskedAccessMask(II);
    DataTy = II.getType();
    break;
  case Intrinsic::masked_store: // (value, ptr, [align,] mask)
    A.Write = true, A.Address = Arg(1), A.Mask = compat::maskedAccessMask(II);
    DataTy = Arg(0)->getType();
    break;
  case Intrinsic::masked_gather: // (ptrs, [align,] mask, passthru)
    A.Addressing = LaneAddressing::PointerVector;
    A.Address = Arg(0), A.Mask = compat::maskedAccessMask(II);
    DataTy = II.getType();
    break;
  case Intrinsic::masked_scatter: // (value, ptrs, [align,] mask)
    A.Write = true, A.Addressing = LaneAddressing::PointerVector;
    A.Address = Arg(1), A.Mask = compat::maskedAccessMask(II);
    DataTy = Arg(0)->getType();
    break;
  case Intrinsic::masked_expandload: // (ptr, mask, passthru)
    A.Addressing = LaneAddressing::Packed;
    A.Address = Arg(0), A.Mask = Arg(1), DataTy = II.getType();
    break;
  case Intrinsic::masked_compressstore: // (value, ptr, mask)
    A.Write = true, A.Addressing = LaneAddressing::Packed;
    A.Address = Arg(1), A.Mask = Arg(2), DataTy = Arg(0)->getType();
    break;
  default:
    return std::nullopt;
  }
  if (!isa<FixedVectorType>(DataTy)) // scalable: no x86 code has them
    return std::nullopt;
  A.Lanes = lanesOf(A.Mask);
  A.ElementBytes = elementBytes(DataTy, DL);
  return A;
}

/// An x86 gather: (passthru, base, indices, mask, scale). A gather of
/// 64-bit indices into 32-bit elements fills half its result, and one of
/// 32-bit indices into 64-bit elements uses half its indices: the lanes
/// are the fewer of the two (and of the mask's).
VectorAccess x86Gather(IntrinsicInst &II, MaskBit Bit, const DataLayout &DL) {
  Value *Index = II.getArgOperand(2);
  Value *Mask = II.getArgOperand(3);
  unsigned Lanes = std::min({lanesOf(&II), lanesOf(Index), lanesOf(Mask)});
  uint64_t Scale = cast<ConstantInt>(II.getArgOperand(4))->getZExtValue();
  return {&II,   false, LaneAddressing::BaseIndex, II.getArgOperand(1),
          Index, Scale, Mask,  Bit, Lanes, elementBytes(II.getType(), DL)};
}

/// An AVX-512 scatter: (base, mask, indices, value, scale).
VectorAccess x86Scatter(IntrinsicInst &II, const DataLayout &DL) {
  Value *Mask = II.getArgOperand(1);
  Value *Index = II.getArgOperand(2);
  Value *Data = II.getArgOperand(3);
  unsigned Lanes = std::min({lanesOf(Data), lanesOf(Index), lanesOf(Mask)});
  uint64_t Scale = cast<ConstantInt>(II.getArgOperand(4))->getZExtValue();
  return {&II,  true,     LaneAddressing::BaseIndex, II.getArgOperand(0),
          Index, Scale, Mask, MaskBit::Boolean, Lanes,
          elementBytes(Data->getType(), DL)};
}

/// The x86 intrinsics that <immintrin.h> reaches: AVX and AVX2 masked
/// loads and stores and gathers, SSE2's byte-masked store (maskmovdqu),
/// and AVX-512's gathers and scatters, whose masks are <N x i1> (its
/// masked loads and stores are the generic intrinsics already).
std::optional<VectorAccess> describeX86(IntrinsicInst &II,
                                        const DataLayout &DL) {
  auto Arg = [&](unsigned I) { return II.getArgOperand(I); };
  switch (II.getIntrinsicID()) {
  case Intrinsic::x86_avx_maskload_ps:
  case Intrinsic::x86_avx_maskload_pd:
  case Intrinsic::x86_avx_maskload_ps_256:
  case Intrinsic::x86_avx_maskload_pd_256:
  case Intrinsic::x86_avx2_maskload_d:
  case Intrinsic::x86_avx2_maskload_q:
  case Intrinsic::x86_avx2_maskload_d_256:
  case Intrinsic::x86_avx2_maskload_q_256: // (ptr, mask)
    return consecutive(II, false, Arg(0), II.getType(), Arg(1), MaskBit::Sign,
                       DL);
  case Intrinsic::x86_avx_maskstore_ps:
  case Intrinsic::x86_avx_maskstore_pd:
  case Intrinsic::x86_avx_maskstore_ps_256:
  case Intrinsic::x86_avx_maskstore_pd_256:
  case Intrinsic::x86_avx2_maskstore_d:
  case Intrinsic::x86_avx2_maskstore_q:
  case Intrinsic::x86_avx2_maskstore_d_256:
  case Intrinsic::x86_avx2_maskstore_q_256: // (ptr, mask, value)
    return consecutive(II, true, Arg(0), Arg(2)->getType(), Arg(1),
                       MaskBit::Sign, DL);
  case Intrinsic::x86_sse2_maskmov_dqu: // (value, mask, ptr)
    return consecutive(II, true, Arg(2), Arg(0)->getType(), Arg(1),
                       MaskBit::Sign, DL);
  case Intrinsic::x86_avx2_gather_d_d:
  case Intrinsic::x86_avx2_gather_d_d_256:
  case Intrinsic::x86_avx2_gather_d_pd:
  case Intrinsic::x86_avx2_gather_d_pd_256:
  case Intrinsic::x86_avx2_gather_d_ps:
  case Intrinsic::x86_avx2_gather_d_ps_256:
  case Intrinsic::x86_avx2_gather_d_q:
  case Intrinsic::x86_avx2_gather_d_q_256:
  case Intrinsic::x86_avx2_gather_q_d:
  case Intrinsic::x86_avx2_gather_q_d_256:
  case Intrinsic::x86_avx2_gather_q_pd:
  case Intrinsic::x86_avx2_gather_q_pd_256:
  case Intrinsic::x86_avx2_gather_q_ps:
  case Intrinsic::x86_avx2_gather_q_ps_256:
  case Intrinsic::x86_avx2_gather_q_q:
  case Intrinsic::x86_avx2_gather_q_q_256:
    return x86Gather(II, MaskBit::Sign, DL);
  default:
    break;
  }
  // The AVX-512 ones are many (a name per width, element and index type)
  // and share their operands' order.
  StringRef Name = II.getCalledFunction()->getName();
  if (Name.starts_with("llvm.x86.avx512.mask.gather"))
    return x86Gather(II, MaskBit::Boolean, DL);
  if (Name.starts_with("llvm.x86.avx512.mask.scatter"))
    return x86Scatter(II, DL);
  return std::nullopt;
}

std::optional<VectorAccess> describe(Instruction &I, const DataLayout &DL) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || II->hasMetadata(LLVMContext::MD_nosanitize))
    return std::nullopt;
  std::optional<VectorAccess> A = describeGeneric(*II, DL);
  if (!A)
    A = describeX86(*II, DL);
  if (!A || !isa<FixedVectorType>(A->Mask->getType()) ||
      A->Address->getType()->getScalarType()->getPointerAddressSpace())
    return std::nullopt; // an integer mask, or not the program's memory
  return A;
}

/// Whether lane \p Lane of \p A is on: an i1, a constant where the mask's
/// element is one.
Value *laneIsOn(IRBuilder<> &B, const VectorAccess &A, unsigned Lane) {
  Value *Element = B.CreateExtractElement(A.Mask, B.getInt64(Lane));
  if (A.Bit == MaskBit::Boolean)
    return Element;
  Type *Ty = Element->getType();
  Value *Bits = B.CreateBitCast(
      Element, B.getIntNTy(Ty->getPrimitiveSizeInBits().getFixedValue()));
  return B.CreateICmpSLT(Bits, Constant::getNullValue(Bits->getType()));
}

/// The address of lane \p Lane's element (not for Packed).
Value *laneAddress(IRBuilder<> &B, const VectorAccess &A, unsigned Lane) {
  switch (A.Addressing) {
  case LaneAddressing::Consecutive:
    return Lane ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), A.Address,
                                               Lane * A.ElementBytes)
                : A.Address;
  case LaneAddressing::PointerVector:
    return B.CreateExtractElement(A.Address, B.getInt64(Lane));
  case LaneAddressing::BaseIndex: {
    Value *Index = B.CreateSExt(
        B.CreateExtractElement(A.Index, B.getInt64(Lane)), B.getInt64Ty());
    return B.CreateGEP(B.getInt8Ty(), A.Address,
                       B.CreateMul(Index, B.getInt64(A.Scale)));
  }
  case LaneAddressing::Packed:
    break;
  }
  llvm_unreachable("a packed access has no address per lane");
}

void checkBytes(IRBuilder<> &B, const VectorAccess &A, Value *Address,
                Value *Bytes) {
  Module &M = *A.Call->getModule();
  CallInst *Check = B.CreateCall(
      getRuntimeFunction(M, A.Write ? RuntimeFn::RaceWriteRange
                                    : RuntimeFn::RaceReadRange),
      {Address, Bytes});
  Check->setDebugLoc(A.Call->getDebugLoc());
  ++NumLaneChecks;
}

bool allLanesOn(const VectorAccess &A) {
  if (!isa<Constant>(A.Mask))
    return false;
  // On constants the builder only folds: it inserts nothing.
  IRBuilder<> B(A.Call->getContext());
  for (unsigned Lane = 0; Lane < A.Lanes; ++Lane) {
    auto *On = dyn_cast<ConstantInt>(laneIsOn(B, A, Lane));
    if (!On || !On->isOne())
      return false;
  }
  return true;
}

/// An expanding load or compressing store: its lanes that are on take
/// that many consecutive elements, one range check.
void checkPacked(const VectorAccess &A) {
  IRBuilder<> B(A.Call);
  Value *Bits = B.CreateBitCast(A.Mask, B.getIntNTy(A.Lanes));
  Value *On = B.CreateZExt(B.CreateUnaryIntrinsic(Intrinsic::ctpop, Bits),
                           B.getInt64Ty());
  checkBytes(B, A, A.Address, B.CreateMul(On, B.getInt64(A.ElementBytes)));
}

/// Each lane's check, before the access, behind a branch on its mask bit
/// unless that is a constant.
void checkEachLane(const VectorAccess &A) {
  DebugLoc Loc = A.Call->getDebugLoc();
  for (unsigned Lane = 0; Lane < A.Lanes; ++Lane) {
    IRBuilder<> B(A.Call);
    Value *On = laneIsOn(B, A, Lane);
    if (auto *Known = dyn_cast<ConstantInt>(On)) {
      if (Known->isOne())
        checkBytes(B, A, laneAddress(B, A, Lane), B.getInt64(A.ElementBytes));
      continue;
    }
    Instruction *Then = SplitBlockAndInsertIfThen(On, A.Call->getIterator(),
                                                  /*Unreachable=*/false);
    Then->setDebugLoc(Loc);
    Then->getParent()->getSinglePredecessor()->getTerminator()->setDebugLoc(
        Loc);
    IRBuilder<> InThen(Then);
    checkBytes(InThen, A, laneAddress(InThen, A, Lane),
               InThen.getInt64(A.ElementBytes));
  }
}

void checkLanes(const VectorAccess &A) {
  if (A.Addressing == LaneAddressing::Packed) {
    checkPacked(A);
  } else if (A.Addressing == LaneAddressing::Consecutive && allLanesOn(A)) {
    IRBuilder<> B(A.Call);
    checkBytes(B, A, A.Address, B.getInt64(A.Lanes * A.ElementBytes));
  } else {
    checkEachLane(A);
  }
  // What ThreadSanitizer must not check again, should it learn to.
  A.Call->setMetadata(LLVMContext::MD_nosanitize,
                      MDNode::get(A.Call->getContext(), {}));
  ++NumVectorAccesses;
}

} // namespace

bool isVectorLaneAccess(Instruction &I) {
  return describe(I, I.getModule()->getDataLayout()).has_value();
}

bool checkVectorAccessesByLane(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread))
      continue;
    // First all of them: the checks split the blocks they are in.
    SmallVector<VectorAccess, 8> Accesses;
    // A thread-local array's lanes are not checked, as no access to a
    // thread-local is (RaceThreadLocals.cpp).
    for (Instruction &I : instructions(F))
      if (std::optional<VectorAccess> A = describe(I, DL);
          A && !isThreadLocalAddress(A->Address))
        Accesses.push_back(*A);
    for (const VectorAccess &A : Accesses)
      checkLanes(A);
    Changed |= !Accesses.empty();
  }
  return Changed;
}

PreservedAnalyses RaceVectorAccessesPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  return checkVectorAccessesByLane(M) ? PreservedAnalyses::none()
                                      : PreservedAnalyses::all();
}

} // namespace weft
