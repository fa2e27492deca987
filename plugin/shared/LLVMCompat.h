//===- LLVMCompat.h - The LLVM APIs that differ between 19 and 22 ---------===//
//
// Weft builds against LLVM/Clang 19 to 22 (WEFT_LLVM_VERSION, chosen at
// configure time). The IR passes call the few LLVM interfaces that changed
// between those versions through the helpers here, so the version tests
// live in one place; everything else is the same on all of them.
//
//   19   -> 20: Intrinsic::getDeclaration became getOrInsertDeclaration.
//   20   -> 21: `nocapture` became the `captures(none)` attribute; a
//               CaptureTracker's callback says which parts are captured;
//               peelLoop can peel the last iterations.
//   21   -> 22: lifetime markers lost their size operand (the marked
//               object is the whole alloca, and must be an alloca);
//               PointerMayBeCaptured lost its StoreCaptures flag; masked
//               loads, stores, gathers and scatters lost their alignment
//               operand (an attribute of the pointer now).
//   The optimizer-last extension point tells its callbacks the LTO phase
//   since 20.
//
// (The front end's differences, in Clang's AST, are in
// frontend/ClangCompat.h.)
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SHARED_LLVMCOMPAT_H
#define WEFT_PLUGIN_SHARED_LLVMCOMPAT_H

#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/LoopPeel.h"

#include <cstdint>
#include <optional>

namespace weft::compat {

/// The declaration of intrinsic \p ID (overloaded on \p Types) in \p M.
inline llvm::Function *
intrinsicDeclaration(llvm::Module *M, llvm::Intrinsic::ID ID,
                     llvm::ArrayRef<llvm::Type *> Types = {}) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::Intrinsic::getOrInsertDeclaration(M, ID, Types);
#else
  return llvm::Intrinsic::getDeclaration(M, ID, Types);
#endif
}

/// The attribute that says a pointer parameter is not captured.
inline llvm::Attribute noCapture(llvm::LLVMContext &Context) {
#if LLVM_VERSION_MAJOR >= 21
  return llvm::Attribute::getWithCaptureInfo(Context,
                                             llvm::CaptureInfo::none());
#else
  return llvm::Attribute::get(Context, llvm::Attribute::NoCapture);
#endif
}

/// Whether \p V may be captured, stores of it included.
inline bool mayBeCaptured(const llvm::Value *V, bool ReturnCaptures) {
#if LLVM_VERSION_MAJOR >= 22
  return llvm::PointerMayBeCaptured(V, ReturnCaptures);
#else
  return llvm::PointerMayBeCaptured(V, ReturnCaptures, /*StoreCaptures=*/true);
#endif
}

/// The object a lifetime marker \p Marker marks.
inline llvm::Value *lifetimeObject(const llvm::IntrinsicInst &Marker) {
#if LLVM_VERSION_MAJOR >= 22
  return Marker.getArgOperand(0);
#else
  return Marker.getArgOperand(1);
#endif
}

/// The bytes a lifetime marker marks, if known: its size operand, or (-1,
/// or since 22 always) its alloca's size.
inline std::optional<uint64_t> lifetimeBytes(const llvm::IntrinsicInst &Marker,
                                             const llvm::DataLayout &DL) {
#if LLVM_VERSION_MAJOR < 22
  auto *Size = llvm::cast<llvm::ConstantInt>(Marker.getArgOperand(0));
  if (!Size->isMinusOne())
    return Size->getZExtValue();
#endif
  if (const auto *Slot = llvm::dyn_cast<llvm::AllocaInst>(
          lifetimeObject(Marker)->stripPointerCasts()))
    if (std::optional<llvm::TypeSize> Bytes = Slot->getAllocationSize(DL))
      if (!Bytes->isScalable())
        return Bytes->getFixedValue();
  return std::nullopt;
}

/// A lifetime start (or end) of \p Object, \p Bytes long, before \p B's
/// insertion point. Since LLVM 22 the marker covers the whole alloca.
inline llvm::CallInst *lifetimeStart(llvm::IRBuilderBase &B,
                                     llvm::Value *Object, uint64_t Bytes) {
#if LLVM_VERSION_MAJOR >= 22
  (void)Bytes;
  return B.CreateLifetimeStart(Object);
#else
  return B.CreateLifetimeStart(Object, B.getInt64(Bytes));
#endif
}
inline llvm::CallInst *lifetimeEnd(llvm::IRBuilderBase &B, llvm::Value *Object,
                                   uint64_t Bytes) {
#if LLVM_VERSION_MAJOR >= 22
  (void)Bytes;
  return B.CreateLifetimeEnd(Object);
#else
  return B.CreateLifetimeEnd(Object, B.getInt64(Bytes));
#endif
}

/// Moves \p I before \p Pos. (22 deprecates positions given as an
/// instruction: an iterator also says where debug records go; 19 has the
/// block-and-iterator form only.)
inline void moveBefore(llvm::Instruction *I, llvm::Instruction *Pos) {
  I->moveBefore(*Pos->getParent(), Pos->getIterator());
}

/// The mask of a masked load, store, gather or scatter \p II.
inline llvm::Value *maskedAccessMask(const llvm::IntrinsicInst &II) {
  using llvm::Intrinsic::ID;
  ID Id = II.getIntrinsicID();
  bool Stores =
      Id == llvm::Intrinsic::masked_store || Id == llvm::Intrinsic::masked_scatter;
#if LLVM_VERSION_MAJOR >= 22
  return II.getArgOperand(Stores ? 2 : 1); // (ptr, mask, passthru)
#else
  return II.getArgOperand(Stores ? 3 : 2); // (ptr, align, mask, passthru)
#endif
}

/// Peels the first iteration of \p L, preserving LCSSA; false if it cannot.
inline bool peelFirstIteration(llvm::Loop *L, llvm::LoopInfo &LI,
                               llvm::ScalarEvolution &SE,
                               llvm::DominatorTree &DT,
                               llvm::AssumptionCache &AC,
                               llvm::ValueToValueMapTy &VMap) {
#if LLVM_VERSION_MAJOR >= 21
  return llvm::peelLoop(L, 1, /*PeelLast=*/false, &LI, &SE, DT, &AC,
                        /*PreserveLCSSA=*/true, VMap);
#else
  return llvm::peelLoop(L, 1, &LI, &SE, DT, &AC, /*PreserveLCSSA=*/true,
                        VMap);
#endif
}

/// Runs \p Callback (a ModulePassManager and an OptimizationLevel) after
/// the module simplification (the inliner), before the optimizer's pipeline.
template <class Fn>
void registerOptimizerEarly(llvm::PassBuilder &PB, Fn Callback) {
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerEarlyEPCallback(
      [Callback](llvm::ModulePassManager &MPM, llvm::OptimizationLevel Level,
                 llvm::ThinOrFullLTOPhase) { Callback(MPM, Level); });
#else
  PB.registerOptimizerEarlyEPCallback(Callback);
#endif
}

/// Runs \p Callback (a ModulePassManager and an OptimizationLevel) at the
/// end of every optimizing pipeline.
template <class Fn>
void registerOptimizerLast(llvm::PassBuilder &PB, Fn Callback) {
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [Callback](llvm::ModulePassManager &MPM, llvm::OptimizationLevel Level,
                 llvm::ThinOrFullLTOPhase) { Callback(MPM, Level); });
#else
  PB.registerOptimizerLastEPCallback(Callback);
#endif
}

/// A CaptureTracker whose one question is whether a use captures, as the
/// callback was before LLVM 21: return true to stop.
struct SimpleCaptureTracker : llvm::CaptureTracker {
  virtual bool capturedBy(const llvm::Use *U) = 0;
#if LLVM_VERSION_MAJOR >= 21
  Action captured(const llvm::Use *U, llvm::UseCaptureInfo) override {
    return capturedBy(U) ? Stop : Continue;
  }
#else
  bool captured(const llvm::Use *U) override { return capturedBy(U); }
#endif
};

} // namespace weft::compat

#endif // WEFT_PLUGIN_SHARED_LLVMCOMPAT_H
