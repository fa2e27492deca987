//===- PostSplit.h - The steps that must wait for coro-split --------------===//
//
// After coro-split each spawning function is a fast clone (the ramp) and a
// slow clone (.resume). These steps run at the end of the pipeline, in the
// order FinishPass::run gives (Finish.cpp). Each is also a module pass of
// its own, so that opt can run it alone on a module in the state just
// before it; Pipeline.h lists their names.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_FINISH_POSTSPLIT_H
#define WEFT_PLUGIN_FINISH_POSTSPLIT_H

#include "shared/RuntimeABI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <optional>

namespace llvm {
class AllocaInst;
class CallBase;
class Value;
class Instruction;
} // namespace llvm

namespace weft {

/// The name of the alloca that a fast clone's frame becomes
/// (FrameToStack.cpp); LLVM numbers a second one in a function.
inline constexpr const char *FrameSlotName = "weft.frame.mem";

/// Runs after coro-split, at the end of the pipeline: inlines the runtime's
/// fast path, folds the fast clones' stolen checks, makes each frame
/// allocation of a constant size an alloca in the entry block of the
/// function that holds it (the fast clone, or its caller once inlined) and
/// drops its free, places dynamic allocas, and puts the thread-local
/// addresses back. With \p CleanUp (any -O but -O0) it also runs a short
/// clean-up on the functions it changed, turns the last recursive call of
/// the fast clones whose frame stays private into a loop, and routes the
/// fast clones' rethrows to their return. "weft-finish", or
/// "weft-finish<clean-up>".
class FinishPass : public llvm::PassInfoMixin<FinishPass> {
public:
  /// With \p Race (race mode), it ends by hiding the frames' own accesses
  /// from ThreadSanitizer (hideFramesFromSanitizer): "weft-finish<race>",
  /// "weft-finish<clean-up;race>".
  explicit FinishPass(bool CleanUp = false, bool Race = false)
      : CleanUp(CleanUp), Race(Race) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  bool CleanUp;
  bool Race;
};

/// After the inliner, before the optimizer's pipeline (not a step of
/// FinishPass): each parallel loop's chunk that spawns nothing inlines the
/// functions that only it calls, and the chunks it changed go through
/// \p Simplify (ChunkCallees.cpp). "weft-inline-chunk-callees".
class InlineChunkCalleesPass
    : public llvm::PassInfoMixin<InlineChunkCalleesPass> {
public:
  explicit InlineChunkCalleesPass(llvm::FunctionPassManager Simplify)
      : Simplify(std::move(Simplify)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  llvm::FunctionPassManager Simplify;
};

/// After InlineChunkCalleesPass: each chunk's loads of its parents' locals
/// that nothing can change while the loop runs move to the chunk's entry,
/// and the chunks it changed go through \p Simplify (ChunkContext.cpp).
/// "weft-chunk-context".
class HoistContextLoadsPass
    : public llvm::PassInfoMixin<HoistContextLoadsPass> {
public:
  explicit HoistContextLoadsPass(llvm::FunctionPassManager Simplify)
      : Simplify(std::move(Simplify)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  llvm::FunctionPassManager Simplify;
};

/// After HoistContextLoadsPass: each call that runs a parallel loop whose
/// iterations cost little, with the default grain, gets a grain of at least
/// enough iterations for a piece to outweigh its spawn (ChunkGrain.cpp).
/// "weft-chunk-grain".
class MinimumGrainPass : public llvm::PassInfoMixin<MinimumGrainPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// What the three steps above share about parallel loops (Chunks.cpp).

/// Whether \p F is a parallel loop's chunk, defined here, that runs no
/// spawn itself (a chunk that spawns is a coroutine, split by now).
bool isPlainChunk(const llvm::Function &F);
/// Whether \p CB runs a parallel loop as (n, grain, chunk, context): the
/// splitter or its work/span copy, and with \p OrPedigreeWrapper also the
/// pedigree wrapper that calls one of them with a chunk of its own.
bool isSplitterCall(const llvm::CallBase &CB, bool OrPedigreeWrapper = false);
/// Simplifies \p Chunk again after a step changed it: its analyses are
/// stale, and then those that \p Simplify does not keep.
void simplifyChangedChunk(llvm::Function &Chunk,
                          llvm::FunctionPassManager &Simplify,
                          llvm::FunctionAnalysisManager &FAM);

// The steps one by one. A step that needs to know which functions are fast
// clones finds them in the IR (findFastClones).

/// "weft-spawn-tail-calls": loopSpawnTailCalls on each fast clone whose
/// frame stays private (the input's fast path not inlined).
class SpawnTailCallsPass : public llvm::PassInfoMixin<SpawnTailCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-inline-fast-path": inlineFastPath.
class InlineFastPathPass : public llvm::PassInfoMixin<InlineFastPathPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// The stolen checks of a split fast clone \p F folded to false as soon as
/// coro-split has made it, so that its callers' inlining weighs it without
/// its slow paths (StolenChecks.cpp).
bool foldFastCloneStolenChecks(llvm::Function &F);
/// Each frame's resume pointer stored just before its pushes, or not at all
/// where none is left (SinkFrameInit.cpp). Before the fast path is inlined.
bool sinkResumePointers(llvm::Module &M);
class EarlyStolenChecksPass
    : public llvm::PassInfoMixin<EarlyStolenChecksPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
};

/// "weft-stolen-checks": lowerStolenChecks.
class StolenChecksPass : public llvm::PassInfoMixin<StolenChecksPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-merge-clones": mergeIdenticalClones, then
/// mergeTwinSpawningFunctions.
class MergeClonesPass : public llvm::PassInfoMixin<MergeClonesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Each slow clone, outlined loop body and spawn helper that is identical
/// to another is replaced by it everywhere (MergeClones.cpp); in
/// \p Touched, if given, the one kept takes the place of a replaced one.
/// Returns true if it merged any.
bool mergeIdenticalClones(
    llvm::Module &M, llvm::SmallPtrSetImpl<llvm::Function *> *Touched = nullptr);

/// Each spawning function that does what a spawning function it calls
/// does (its instructions are the callee's, with its calls of the callee
/// where the callee calls itself) calls that twin instead of keeping a copy
/// of its body (MergeClones.cpp). Run after mergeIdenticalClones, which
/// makes the two frames' slow clones one. Returns true if any forwards.
bool mergeTwinSpawningFunctions(llvm::Module &M);

/// "weft-race-frame": hideFramesFromSanitizer (race mode only).
class RaceFramePass : public llvm::PassInfoMixin<RaceFramePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-race-locations": nameAccessLines (race mode only).
class RaceLocationsPass : public llvm::PassInfoMixin<RaceLocationsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-race-thread-locals": hideThreadLocalsFromSanitizer (race mode
/// only).
class RaceThreadLocalsPass : public llvm::PassInfoMixin<RaceThreadLocalsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-race-ranges": checkAccessRunsAsRanges (race mode only).
class RaceRangesPass : public llvm::PassInfoMixin<RaceRangesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-race-vector-accesses": checkVectorAccessesByLane (race mode only).
class RaceVectorAccessesPass
    : public llvm::PassInfoMixin<RaceVectorAccessesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-frame-to-stack": placeFramesOnStack, which also sinks each
/// frame's initialisation.
class FrameToStackPass : public llvm::PassInfoMixin<FrameToStackPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-place-dynamic-allocas": placeDynamicAllocas.
class PlaceDynamicAllocasPass
    : public llvm::PassInfoMixin<PlaceDynamicAllocasPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-clean-up-fast-clones": cleanUpFastClones on the fast clones.
class CleanUpFastClonesPass
    : public llvm::PassInfoMixin<CleanUpFastClonesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-rethrow-exits": routeRethrowsToReturn on each fast clone.
class RethrowExitsPass : public llvm::PassInfoMixin<RethrowExitsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "weft-restore-thread-locals": restoreThreadLocalAddresses.
class RestoreThreadLocalsPass
    : public llvm::PassInfoMixin<RestoreThreadLocalsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// The fast clones as the IR shows them: the functions that call the
/// frame-alloc marker, or hold an alloca that placeFramesOnStack made of
/// such a call. That alloca is known by its name only, which clang drops
/// (it discards value names), so FinishPass passes the set from step to
/// step instead; this is for a step that opt runs alone.
llvm::SmallPtrSet<llvm::Function *, 8> findFastClones(llvm::Module &M);

/// The runtime's fast path as bitcode, one per architecture this plugin
/// was built to serve (FastPathBitcode.cpp).
llvm::ArrayRef<llvm::StringRef> embeddedFastPaths();

/// Inlines the runtime's push and pop (runtime/fast_path.cpp, embedded as
/// bitcode) at each call the lowering emitted (FastPath.cpp), or only the
/// calls of \p Only, for a second round that must leave alone the rare
/// paths that the first round inlined. Returns true if it changed
/// anything. Adds the functions it inlined into to \p Touched.
bool inlineFastPath(llvm::Module &M,
                    llvm::SmallPtrSetImpl<llvm::Function *> &Touched,
                    std::optional<RuntimeFn> Only = std::nullopt);

/// Each __weft_is_stolen call becomes false in a fast clone and a load of
/// the flag elsewhere (StolenChecks.cpp). Adds the functions it folded to
/// \p Touched.
bool lowerStolenChecks(llvm::Module &M,
                       llvm::SmallPtrSetImpl<llvm::Function *> &Touched);

/// Each frame allocation of a constant size becomes an alloca in the entry
/// block of the function that holds it, its free disappears and its
/// initialisation is sunk (FrameToStack.cpp). Adds the functions that
/// allocate a frame to \p FastClones. Returns true if it changed anything.
bool placeFramesOnStack(llvm::Module &M,
                        llvm::SmallPtrSetImpl<llvm::Function *> &FastClones);

/// In race mode, after every other step: puts !nosanitize on the loads,
/// stores and memsets of each coroutine frame's own fields (header, resume
/// index, promise, spills), so that ThreadSanitizer, which runs next,
/// instruments the program's accesses only (RaceFrame.cpp). Returns true
/// if it changed anything.
bool hideFramesFromSanitizer(llvm::Module &M);

/// In race mode: each access ThreadSanitizer may instrument that has no
/// line of its own (a load LICM hoisted, a compiler-made access) takes the
/// nearest line in its block, so that a report always names a source line
/// (RaceLocations.cpp). Returns true if it changed anything.
bool nameAccessLines(llvm::Module &M);

/// In race mode: !nosanitize on each access to a thread-local variable,
/// which every strand of the detector's one-thread run shares
/// (RaceThreadLocals.cpp). Returns true if it changed anything.
bool hideThreadLocalsFromSanitizer(llvm::Module &M);
/// Whether \p Address is in a thread-local variable (or a constant offset
/// into one), which the race detector does not check.
bool isThreadLocalAddress(const llvm::Value *Address);

/// In race mode: before each stackrestore, and after each lifetime.end in
/// a function that spawns that has none yet, the call that tells the race
/// detector the slot's life ended: an access that races with a child still
/// using it, after which the slot starts fresh (RaceDeadSlots.cpp). Returns
/// true if it changed anything.
bool forgetDeadSlotsInRace(llvm::Module &M);

/// In race mode: before each gather, scatter, masked load or store (the
/// generic llvm.masked.* and the x86 AVX, AVX2 and AVX-512 ones), which
/// ThreadSanitizer does not instrument, a check of each lane's element,
/// taken when the lane's mask bit is on (RaceVectorAccesses.cpp). Returns
/// true if it changed anything.
bool checkVectorAccessesByLane(llvm::Module &M);

/// Whether \p I is an access that checkVectorAccessesByLane checks.
bool isVectorLaneAccess(llvm::Instruction &I);

/// In race mode, last: in each straight run of code, the loads (stores)
/// of one base pointer and source location that together touch one
/// contiguous range are checked by one call of the detector instead of
/// ThreadSanitizer's one per access, and so is a lone access of a size
/// ThreadSanitizer has no call for (32 or 64 bytes: AVX vectors)
/// (RaceRanges.cpp). Returns true if it changed anything.
bool checkAccessRunsAsRanges(llvm::Module &M);

/// Whether \p I is the empty asm that lets a spawn's destination escape
/// (SpawnWindow.cpp, escapeDestinations), which captures nothing really.
bool isEscapeMarker(const llvm::Instruction &I);

/// Once \p Frame (a fast clone's coroutine frame) is an alloca: moves the
/// stores that initialise it off the paths that never use it
/// (SinkFrameInit.cpp). Returns true if it moved any.
bool sinkFrameInitialization(llvm::AllocaInst *Frame);

/// Puts back the dynamic allocas and stack saves that the lowering hid
/// behind markers, as stack allocations in fast clones and arena
/// allocations in slow clones, and the spawned statements' temporaries
/// (PlaceDynamicAllocas.cpp). \p FastClones are the functions that
/// allocate a coroutine frame. Returns true if it changed anything.
bool placeDynamicAllocas(
    llvm::Module &M, const llvm::SmallPtrSetImpl<llvm::Function *> &FastClones);

/// Nothing optimises after the end of the pipeline, so the functions the
/// steps changed get a short clean-up of their own (Finish.cpp). Returns
/// true unless \p Functions is empty.
bool cleanUpFastClones(const llvm::SmallPtrSetImpl<llvm::Function *> &Functions,
                       llvm::ModuleAnalysisManager &MAM, llvm::Module &M);

/// Before the fast path is inlined: the fast clones that call themselves
/// and whose frame stays private, every use of it an access of its slots or
/// one of the runtime's frame calls (SpawnTailCalls.cpp).
llvm::SmallPtrSet<llvm::Function *, 8>
findPrivateFrameRecursion(llvm::Module &M);

/// In a pedigree build, before the fast path is inlined, on a fast clone
/// that findPrivateFrameRecursion found: each sync's count that directly
/// follows a call of the function itself becomes a marker that the
/// clean-up sees through, which loopSpawnTailCalls turns into the loop's
/// own count (SpawnTailCalls.cpp). Returns true if it changed \p F.
bool setAsideTailSyncs(llvm::Function &F);

/// After loopSpawnTailCalls: a marker it did not use (the call stayed a
/// call, or it never ran) becomes a count again, which inlineFastPath
/// inlines. Returns true if it changed \p M.
bool restoreTailSyncsLeft(llvm::Module &M);

/// After the clean-up, on a fast clone that findPrivateFrameRecursion
/// found: forwards its spawns' results, makes calls whose landing pad only
/// rethrows plain calls, and turns its last recursive call into a loop
/// (SpawnTailCalls.cpp). Returns true if it changed \p F.
bool loopSpawnTailCalls(llvm::Function &F,
                        llvm::FunctionAnalysisManager &FAM);

/// After the clean-up that follows loopSpawnTailCalls, and after
/// routeRethrowsToReturn: each return block reached with nothing but
/// arguments and constants (a leaf's path, before the loop) gets a copy of
/// its own, which the clean-up would merge back,
/// so that the leaf's path keeps no value in the loop's registers and the
/// prologue stays off it. Returns true if it changed \p F.
bool separateLeafReturns(llvm::Function &F);

/// Last, on a fast clone that loopSpawnTailCalls changed: separateLeafReturns,
/// and the loop's accumulator kept in the frame's unused destroy slot
/// rather than in a callee-saved register (SpawnTailCalls.cpp). Nothing
/// optimises after it, which could move the accumulator's loads.
bool finishSpawnTailLoop(llvm::Function &F);

/// For the step run alone: the frame of fast clone \p F, whether it stays
/// private, and whether \p F calls itself.
llvm::AllocaInst *findFastCloneFrame(llvm::Function &F);
bool hasPrivateFrame(llvm::AllocaInst &Frame);
bool callsItselfDirectly(llvm::Function &F);

/// Each invoke of \p F that no landing pad reaches and whose landing pad
/// only catches into \p Frame and rethrows becomes a call
/// (RethrowExits.cpp). Returns true if it changed \p F.
bool demoteRethrowingInvokes(llvm::Function &F, llvm::AllocaInst *Frame);

/// Runs last on each fast clone: the `unreachable` after each runtime
/// rethrow becomes a branch to the function's one return (made one if it
/// had several), and the leaf's path gets a return of its own again
/// (separateLeafReturns), so that shrink-wrapping can keep the prologue off
/// the paths that never spawn (RethrowExits.cpp). Returns true if it
/// changed \p F.
bool routeRethrowsToReturn(llvm::Function &F);

} // namespace weft

#endif // WEFT_PLUGIN_FINISH_POSTSPLIT_H
