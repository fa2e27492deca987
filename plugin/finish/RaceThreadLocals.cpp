//===- RaceThreadLocals.cpp - Thread-local variables are not checked ------===//
//
// A thread_local variable in a Cilk program is per worker, and which
// worker runs a strand is the scheduler's choice. The race detector runs
// every strand on one thread, where all of them share one copy: two
// logically parallel strands that each set a thread-local and then read
// their own value back (libstdc++'s std::call_once does this with its
// bookkeeping, `once_flag::_Prepare_execution` in <mutex>) would be
// reported as racing on it, and that is no race on any schedule: each
// strand reads what it wrote, with no steal point in between.
//
// So in race mode, before ThreadSanitizer runs, each load, store, atomic
// and memory intrinsic whose address is a thread-local variable (or a
// constant offset into one: a field, an element) gets !nosanitize, which
// ThreadSanitizer skips:
//
//   %p = call ptr @llvm.threadlocal.address.p0(ptr @tls)
//   store ptr %f, ptr %p                 ==>   store ptr %f, ptr %p, !nosanitize
//
// What this gives up is docs/race.md's to say: a program whose result
// depends on which worker ran a strand (a strand reads a thread-local that
// a logically parallel one set) has a determinacy race that the detector
// does not report.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace weft {
namespace {

/// The addresses \p I accesses, for the kinds ThreadSanitizer instruments.
SmallVector<const Value *, 2> accessedAddresses(const Instruction &I) {
  if (const auto *L = dyn_cast<LoadInst>(&I))
    return {L->getPointerOperand()};
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return {S->getPointerOperand()};
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return {RMW->getPointerOperand()};
  if (const auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I))
    return {CAS->getPointerOperand()};
  if (const auto *Transfer = dyn_cast<MemTransferInst>(&I))
    return {Transfer->getRawDest(), Transfer->getRawSource()};
  if (const auto *Set = dyn_cast<MemSetInst>(&I))
    return {Set->getRawDest()};
  return {};
}

} // namespace

bool isThreadLocalAddress(const Value *Address) {
  const Value *Base = getUnderlyingObject(Address);
  if (const auto *II = dyn_cast<IntrinsicInst>(Base);
      II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
    Base = getUnderlyingObject(II->getArgOperand(0));
  const auto *GV = dyn_cast<GlobalVariable>(Base);
  return GV && GV->isThreadLocal();
}

bool hideThreadLocalsFromSanitizer(Module &M) {
  bool Changed = false;
  MDNode *Empty = MDNode::get(M.getContext(), {});
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      SmallVector<const Value *, 2> Addresses = accessedAddresses(I);
      if (Addresses.empty() || !llvm::all_of(Addresses, isThreadLocalAddress))
        continue;
      I.setMetadata(LLVMContext::MD_nosanitize, Empty);
      Changed = true;
    }
  return Changed;
}

PreservedAnalyses RaceThreadLocalsPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  return hideThreadLocalsFromSanitizer(M) ? PreservedAnalyses::none()
                                          : PreservedAnalyses::all();
}

} // namespace weft
