//===- SpawnLowering.h - Rewriting one spawning function (internal) -------===//
//
// The pass (LowerSpawns.cpp) resolves the front end's marks and hands each
// spawning function to a SpawnLowering, which rewrites it into a pre-split
// coroutine: SpawnLowering.cpp for the frame, spawns, syncs and returns,
// SpawnHelper.cpp for outlined spawn windows, SpawnExceptions.cpp for
// exceptions, LandingPadSyncs.cpp for the landing pads' waits for
// children. LowerSpawns.cpp explains the strategy.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SPAWNLOWERING_H
#define WEFT_PLUGIN_SPAWNLOWERING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace weft {

/// The runtime entry points and coroutine intrinsics one module needs.
struct RuntimeDecls {
  explicit RuntimeDecls(llvm::Module &M);

  llvm::FunctionCallee Push, Pop, SpawnStolen, SyncSlow, FrameComplete;
  llvm::FunctionCallee FrameAlloc, FrameFree;
  llvm::FunctionCallee IsStolen; // the frame's `stolen` flag (StolenChecks.cpp)
  // Exceptions (SpawnExceptions.cpp): into and out of the frame, or held
  // by the function itself across a sync.
  llvm::FunctionCallee Catch, Rethrow, Hold, RethrowAfterSync;
  llvm::FunctionCallee ArenaRelease;   // dynamic allocas (DynamicAllocas.cpp)
  llvm::Function *CoroId, *CoroSize, *CoroAlign, *CoroBegin, *CoroSave,
      *CoroSuspend, *CoroEnd;
};

/// Reports an error the front end could not catch, at the instruction's
/// source location when debug info has one. Clang prints it as an error
/// naming the function, and the compilation fails.
void reportUnsupported(llvm::Function &F, const llvm::Twine &Msg,
                       const llvm::Instruction *At);

/// Removes a sync marker call, or invoke (which then falls through to its
/// normal destination).
void eraseSyncMarker(llvm::CallBase *Sync);

/// Whether \p I is the front end's end-of-statement marker (SpawnWindow.cpp).
bool isSpawnEnd(const llvm::Instruction &I);

/// Where the parent continues once a call returns normally: after a call,
/// or at the start of an invoke's normal destination (SpawnWindow.cpp).
llvm::Instruction *firstAfterReturn(llvm::CallBase *Call);

/// The error for a spawn whose result is used other than by stores
/// (SpawnWindow.cpp).
const char *whyNoWindow(llvm::CallBase *Call, llvm::Instruction *First);

/// A sync point: where it is, and where an exception rethrown there goes
/// (the sync's own landing pad when it sits in a try block or a scope with
/// destructors; null means the function's catch-all).
struct SyncPoint {
  llvm::Instruction *Before;
  llvm::BasicBlock *UnwindTo;
};

class WorkSpanHooks;
class PedigreeHooks;

/// The sync marks in \p SyncMarks and the returns in \p Returns before
/// which no child of \p F can be outstanding: every path from the entry
/// passes a sync after its last call in \p Spawns (IdleSyncs.cpp).
llvm::SmallPtrSet<llvm::Instruction *, 8>
findIdleSyncs(llvm::Function &F,
              const llvm::SmallPtrSetImpl<llvm::CallBase *> &Spawns,
              llvm::ArrayRef<llvm::CallBase *> SyncMarks,
              llvm::ArrayRef<llvm::ReturnInst *> Returns);

/// One spawning function being rewritten.
class SpawnLowering {
public:
  /// With \p WorkSpan (workspan mode), also reports F's spawns, syncs,
  /// entry and returns to the work/span analysis (WorkSpan.h); with
  /// \p Pedigrees (pedigree builds), keeps its strands' pedigrees
  /// (Pedigrees.h).
  SpawnLowering(llvm::Function &F, RuntimeDecls &RT,
                WorkSpanHooks *WorkSpan = nullptr,
                PedigreeHooks *Pedigrees = nullptr)
      : F(F), RT(RT), WorkSpan(WorkSpan), Pedigrees(Pedigrees) {}

  /// Rewrites F into a pre-split coroutine. Returns false (after reporting)
  /// if F uses something the lowering cannot handle.
  bool run(llvm::ArrayRef<llvm::CallBase *> Spawns,
           llvm::ArrayRef<llvm::CallBase *> Syncs);

private:
  // SpawnLowering.cpp
  bool checkSupported();
  void addResultField(const llvm::DataLayout &DL,
                      llvm::SmallVectorImpl<llvm::Type *> &Fields);
  void emitPrologue();
  llvm::BasicBlock *getExit();
  void branchToExit(llvm::IRBuilder<> &B, bool Suspended, llvm::Value *V);
  void lowerSpawn(llvm::CallBase *Call);
  void lowerSync(SyncPoint Sync, bool RethrowPending);
  void lowerReturn(llvm::ReturnInst *Ret);
  llvm::Value *frameField(llvm::IRBuilder<> &B, unsigned Offset,
                          const llvm::Twine &Name);
  llvm::Value *loadStolen(llvm::IRBuilder<> &B);
  llvm::Value *loadResult(llvm::IRBuilder<> &B);
  void storeResult(llvm::IRBuilder<> &B, llvm::Value *Result);
  bool endsWindowScan(const llvm::Instruction &I) const;
  llvm::CallBase *sinkToConsumers(llvm::CallBase *Call);
  llvm::Instruction *
  collectSpawnWindow(llvm::CallBase *Call, llvm::Instruction *First,
                     llvm::SmallVectorImpl<llvm::Instruction *> &Window);

  // SpawnHelper.cpp
  bool windowNeedsHelper(llvm::ArrayRef<llvm::Instruction *> Window) const;
  /// Moves the window into a helper; \p Window becomes the helper's call
  /// and what stays after it.
  llvm::CallBase *
  outlineWindow(llvm::SmallVectorImpl<llvm::Instruction *> &Window);
  void addSuspend(llvm::BasicBlock *From, llvm::Value *Save,
                  llvm::BasicBlock *Resume);
  void escapeDestinations(llvm::ArrayRef<llvm::Instruction *> Window);

  // SpawnArguments.cpp
  /// Reports an argument the lowering cannot pass from the parent.
  bool checkArgumentsSupported(llvm::CallBase *Call);
  /// Makes the objects \p Call takes in memory the statement's own
  /// temporaries: a copy of each byval argument made before the push, and
  /// lifetime markers for argument temporaries that have none. Their
  /// lifetime ends join \p Window; returns its new last instruction.
  llvm::Instruction *
  privatizeArguments(llvm::CallBase *Call,
                     llvm::SmallVectorImpl<llvm::Instruction *> &Window,
                     llvm::Instruction *End);
  bool isStealPoint(const llvm::Instruction &I) const;
  bool temporariesOutliveWindow(llvm::CallBase *Call,
                                llvm::Instruction *WindowEnd) const;
  bool stealPointBetween(llvm::Instruction *Start, llvm::CallBase *Call) const;

  // DynamicAllocas.cpp
  bool hasDynamicAllocas() const;
  void hideDynamicAllocas();
  void noteStatementTemporaries(llvm::ArrayRef<llvm::Instruction *> Window);
  void privatizeStatementTemporaries();

  // SpawnExceptions.cpp
  static bool needsUnwindHandling(llvm::Function &F);
  void prepareUnwinding();
  static llvm::SmallVector<llvm::Instruction *, 4>
  copyCleanups(llvm::ArrayRef<llvm::Instruction *> Window);
  void lowerSpawnUnwind(llvm::InvokeInst *Spawn, llvm::Value *Mark,
                        llvm::BasicBlock *Stolen,
                        llvm::ArrayRef<llvm::Instruction *> Cleanups);
  void emitRethrow(llvm::IRBuilder<> &B, llvm::BasicBlock *UnwindTo,
                   llvm::BasicBlock *Like);
  llvm::BasicBlock *emitPendingCheck(llvm::BasicBlock *Done,
                                     llvm::BasicBlock *UnwindTo);
  void rethrowAfterPark(llvm::IRBuilder<> &B);
  llvm::Value *hasPendingException(llvm::IRBuilder<> &B);

  // LandingPadSyncs.cpp
  void syncLandingPads();
  llvm::LandingPadInst *
  waitBeforeCleanups(llvm::Instruction *At,
                     llvm::ArrayRef<llvm::LandingPadInst *> Pads,
                     const llvm::SmallPtrSetImpl<llvm::Instruction *> &BeforeWait);
  llvm::LandingPadInst *reentryPad(llvm::IRBuilder<> &B,
                                   llvm::ArrayRef<llvm::LandingPadInst *> Pads);
  void replaySlotStores(llvm::IRBuilder<> &B,
                        llvm::ArrayRef<llvm::LandingPadInst *> Pads,
                        llvm::LandingPadInst *LP,
                        const llvm::SmallPtrSetImpl<llvm::Instruction *> &BeforeWait);
  void repairPadValues(
      llvm::ArrayRef<std::pair<llvm::LandingPadInst *, llvm::LandingPadInst *>>
          Reentries,
      const llvm::SmallPtrSetImpl<llvm::Instruction *> &BeforeWait);

  llvm::Function &F;
  RuntimeDecls &RT;
  WorkSpanHooks *WorkSpan;
  PedigreeHooks *Pedigrees;
  llvm::SmallPtrSet<llvm::CallBase *, 8> SpawnSet; // the calls to lower
  // Sync marks and returns that wait for nothing (IdleSyncs.cpp).
  llvm::SmallPtrSet<llvm::Instruction *, 8> IdleSyncs;
  llvm::Type *RetTy = nullptr;
  llvm::StructType *FrameTy = nullptr;
  unsigned ResultField = 0;      // the result's field of FrameTy, if any
  llvm::Align ResultAlign;       // what its loads and stores may assume
  llvm::AllocaInst *Frame = nullptr;
  llvm::Value *Mem = nullptr;
  llvm::Value *Handle = nullptr;
  llvm::Value *ArenaSlot = nullptr; // the frame's arena, if F has VLAs
  // Allocas whose lifetime ends in a spawn's window (DynamicAllocas.cpp).
  llvm::SmallSetVector<llvm::AllocaInst *, 4> StatementTemporaries; // in IR order
  llvm::BasicBlock *Exit = nullptr;
  llvm::PHINode *ExitWasSuspended = nullptr;
  llvm::PHINode *ExitValue = nullptr;
  // The pedigree frame, from the suspended paths only (Pedigrees.h).
  llvm::PHINode *ExitPedigree = nullptr;

  // Exceptions: set by prepareUnwinding() when F can unwind at all.
  bool Unwinds = false;
  llvm::BasicBlock *CatchAllPad = nullptr; // landingpad catch-all
  llvm::BasicBlock *Handler = nullptr;     // takes an exception; phi %exn
  llvm::PHINode *HandlerExn = nullptr;
  llvm::ReturnInst *EscapeReturn = nullptr; // ends the slow clone's escape
  llvm::SmallVector<llvm::LandingPadInst *, 8> OwnPads; // F's own, not ours
  llvm::AllocaInst *ExnSlot = nullptr; // each own pad's exception (path 4)
};

} // namespace weft

#endif // WEFT_PLUGIN_SPAWNLOWERING_H
