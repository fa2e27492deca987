//===- IdleSyncs.cpp - The syncs no child can be waiting at ---------------===//
//
// A sync waits for the children spawned since the last sync. Where every
// path from the function's entry passes a sync after its last spawn, or
// no spawn at all, there is none to wait for, and the sync would only cost
// code: in the slow clone a suspend point (a resume index, a block that
// calls the runtime and may suspend, a rethrow check), and in the fast
// clone a check that folds away. The common shape is a function that ends
// in `cilk_sync; return;`: the front end adds an implicit sync after the
// body's last statement, and the lowering one at each return, three in a
// row where one waits.
//
//   spawn f(); g(); sync;    ; waits
//   [implicit sync]          ; idle: every path here passed the sync above
//   ret                      ; idle: its implicit sync is left out
//
// A forward data-flow over the blocks (before the lowering changes them)
// says where a child may be outstanding: a spawned call sets it, a sync
// mark clears it, and a block gets the union of its predecessors. An
// invoke's unwind edge carries what held before the call, or, for a
// spawned call, that a child may be outstanding; a sync's unwind edge, too,
// what held before it, though the sync waited before it threw. Calls that
// spawn inside (other spawning functions) sync before they return, so
// they change nothing.
//
//===----------------------------------------------------------------------===//

#include "lower/SpawnLowering.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace weft {
namespace {

/// Where children may be outstanding in one function.
class PendingChildren {
public:
  PendingChildren(Function &F, const SmallPtrSetImpl<CallBase *> &Spawns,
                  const SmallPtrSetImpl<CallBase *> &Syncs)
      : F(F), Spawns(Spawns), Syncs(Syncs) {}

  /// Solves the flow; then pendingBefore() answers.
  void solve();
  /// Whether a child may be outstanding just before \p I.
  bool pendingBefore(const Instruction *I) const;

private:
  /// The state after \p I, given the state before it.
  bool after(const Instruction &I, bool Before) const {
    auto *Call = dyn_cast<CallBase>(&I);
    if (Call && Spawns.contains(Call))
      return true;
    if (Call && Syncs.contains(Call))
      return false;
    return Before;
  }
  /// Joins \p State into \p Succ's entry; true if that changed it.
  bool join(const BasicBlock *Succ, bool State) {
    bool &In = Entry[Succ];
    if (!State || In)
      return false;
    In = true;
    return true;
  }

  Function &F;
  const SmallPtrSetImpl<CallBase *> &Spawns;
  const SmallPtrSetImpl<CallBase *> &Syncs;
  DenseMap<const BasicBlock *, bool> Entry; // at each block's start
};

void PendingChildren::solve() {
  SmallVector<const BasicBlock *, 16> Work;
  for (const BasicBlock &BB : F)
    Work.push_back(&BB);
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    bool State = Entry.lookup(BB);
    for (const Instruction &I : *BB) {
      if (&I == BB->getTerminator())
        break;
      State = after(I, State);
    }
    const Instruction *Term = BB->getTerminator();
    if (auto *Invoke = dyn_cast<InvokeInst>(Term)) {
      bool Unwinding =
          Spawns.contains(const_cast<InvokeInst *>(Invoke)) || State;
      if (join(Invoke->getNormalDest(), after(*Invoke, State)))
        Work.push_back(Invoke->getNormalDest());
      if (join(Invoke->getUnwindDest(), Unwinding))
        Work.push_back(Invoke->getUnwindDest());
      continue;
    }
    for (const BasicBlock *Succ : successors(BB))
      if (join(Succ, State))
        Work.push_back(Succ);
  }
}

bool PendingChildren::pendingBefore(const Instruction *I) const {
  const BasicBlock *BB = I->getParent();
  bool State = Entry.lookup(BB);
  for (const Instruction &J : *BB) {
    if (&J == I)
      return State;
    State = after(J, State);
  }
  return State;
}

} // namespace

SmallPtrSet<Instruction *, 8>
findIdleSyncs(Function &F, const SmallPtrSetImpl<CallBase *> &Spawns,
              ArrayRef<CallBase *> SyncMarks, ArrayRef<ReturnInst *> Returns) {
  SmallPtrSet<CallBase *, 8> Syncs(SyncMarks.begin(), SyncMarks.end());
  PendingChildren Pending(F, Spawns, Syncs);
  Pending.solve();
  SmallPtrSet<Instruction *, 8> Idle;
  for (CallBase *Sync : SyncMarks)
    if (!Pending.pendingBefore(Sync))
      Idle.insert(Sync);
  for (ReturnInst *Ret : Returns)
    if (!Pending.pendingBefore(Ret))
      Idle.insert(Ret);
  return Idle;
}

} // namespace weft
