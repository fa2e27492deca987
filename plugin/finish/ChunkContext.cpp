//===- ChunkContext.cpp - A chunk reads its parent's unchanging locals once ===//
//
// A cilk_for's body becomes a chunk function before the optimizer has run
// (lower/parallel_for/ParallelFor.cpp): it reaches what the body captured
// through the context, the parent's locals by address. A generic
// parallel_for takes its functor by reference, and the functor captures by
// reference in turn, so once the parent has inlined it every iteration
// walks a chain of the parent's locals to reach, say, the buffer it writes:
//
//   ; in the parent                       ; the chunk, before
//   %buf = alloca ptr                     loop:
//   %fn  = alloca { ptr }                   %fn = load ptr, ptr %ctx.fn
//   %ctx = alloca { ptr, ... }              %p  = load ptr, ptr %fn
//   store ptr %data, ptr %buf               %b  = load ptr, ptr %p
//   store ptr %buf, ptr %fn                 store i32 0, ptr %b.i
//   store ptr %fn, ptr %ctx                 br loop
//   call @__weft_parallel_for(..., ptr @chunk, ptr %ctx)
//
// LLVM must load %p and %b again after each store, which may overwrite
// them for all it knows; the serial elision, with the loop in the parent,
// keeps %data in a register. Yet nothing can write those locals while the
// loop runs: the parent waits in the splitter, and no one else has their
// addresses. So after the inliner (parents final, chunks' callees inlined
// by ChunkCallees.cpp) the chunk loads them once, at its entry:
//
//   ; the chunk, after
//   entry:
//     %fn = load ptr, ptr %ctx.fn
//     %p  = load ptr, ptr %fn
//     %b  = load ptr, ptr %p
//   loop:
//     store i32 0, ptr %b.i
//
// The argument, over the whole module (ContextLocals). The tracked locals
// are each splitter call's context and, from there, every alloca whose
// address a tracked local's field receives (a link). A tracked local is
// unchanging while its loops run if
//  - its parent uses its address only to load and store at constant
//    offsets, to store it into another tracked local, to compare, to pass
//    it to a call that keeps no copy and returns before the parent goes on
//    (no push in the parent; the call may have read its links), and (the
//    context) to pass it to a splitter whose chunk is analysed here; the
//    parent never reads a link back. So its address exists only in the
//    parent's registers, which the waiting parent does not use, and in the
//    links, which only the chunks read. A use that cannot reach any of the
//    parent's loops (a destructor after them) does not count;
//  - every chunk that can reach it only loads from it, at constant
//    offsets, and uses what a link holds the same way: no store, call or
//    anything else that could write it or let its address out;
//  - no local that could be written or let out (escaped) links to it.
// Then a chunk's load from it reads the same value in every iteration, and
// reads a dereferenceable alloca of the live parent from the entry as well.
// A load of anything else (a heap object, `this` of the caller) stays.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/Markers.h"
#include "shared/RuntimeABI.h"
#include "weft/frame_abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <functional>
#include <optional>

#define DEBUG_TYPE "weft-chunk-context"

using namespace llvm;

STATISTIC(NumContextLoadsHoisted,
          "Loads of a loop parent's unchanging locals hoisted to the chunk's "
          "entry");

namespace weft {
namespace {

/// A byte of a loop parent's local: the local (an alloca, or a frame's
/// allocation, see privateLocal) and an offset into it.
struct Place {
  Instruction *Local;
  int64_t Offset;
};

/// What the module says about one tracked local.
struct LocalFacts {
  /// The fields that hold another tracked local's address, each with
  /// where it points; a field stored more than one address appears more
  /// than once.
  SmallVector<std::pair<int64_t, Place>, 2> Links;
  /// The byte ranges [offset, offset + size) that its parent loads.
  SmallVector<std::pair<int64_t, uint64_t>, 2> ParentReads;
  /// Something may write it, or learn its address, while a loop runs.
  bool Escaped = false;
};

/// A chunk's load from tracked locals: it reads one of Places.
struct ContextLoad {
  LoadInst *Load;
  SmallVector<Place, 2> Places;
};

/// \p V if it is memory of its function's own that no one else can name
/// unless given its address: an alloca, or a spawning function's frame
/// (inlined into the parent), which becomes one at the end of the pipeline
/// (FrameToStack.cpp).
Instruction *privateLocal(Value *V) {
  if (auto *Local = dyn_cast<AllocaInst>(V))
    return Local;
  auto *Call = dyn_cast<CallInst>(V);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (Callee && Callee->getName() == FrameAllocName)
    return Call;
  return nullptr;
}

/// The size of \p Local, if it is a constant.
std::optional<uint64_t> localSize(const Instruction &Local,
                                  const DataLayout &DL) {
  if (auto *Alloca = dyn_cast<AllocaInst>(&Local)) {
    std::optional<TypeSize> Bytes = Alloca->getAllocationSize(DL);
    if (!Bytes || Bytes->isScalable())
      return std::nullopt;
    return Bytes->getFixedValue();
  }
  if (auto *Bytes = dyn_cast<ConstantInt>(cast<CallInst>(Local).getArgOperand(0)))
    return Bytes->getZExtValue();
  return std::nullopt;
}

/// Whether every use of \p Chunk is a splitter call that passes it as the
/// chunk and a local of the caller as the context.
bool onlyRunBySplitters(const Function &Chunk) {
  if (!isPlainChunk(Chunk) || !Chunk.hasLocalLinkage() ||
      Chunk.arg_size() != 3)
    return false;
  for (const Use &U : Chunk.uses()) {
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !isSplitterCall(*CB) || U.getOperandNo() != 2 ||
        !isa<AllocaInst>(CB->getArgOperand(3)))
      return false;
  }
  return true;
}

/// Every byte of a local, from its start, for overlaps().
constexpr uint64_t WholeLocal = uint64_t(1) << 40;

bool overlaps(int64_t A, uint64_t ASize, int64_t B, uint64_t BSize) {
  return A < B + static_cast<int64_t>(BSize) &&
         B < A + static_cast<int64_t>(ASize);
}

/// The tracked locals of every analysed chunk's parents, and which of them
/// stay unchanging while the loops run (the file's header).
class ContextLocals {
public:
  ContextLocals(Module &M, ArrayRef<Function *> Chunks,
                FunctionAnalysisManager &FAM);

  /// The loads of tracked locals in \p Chunk that read an unchanging one,
  /// in the order of their chains (a link's load before the loads through
  /// it).
  SmallVector<LoadInst *, 8> unchangingLoads(Function &Chunk) const;

private:
  const DataLayout &DL;
  FunctionAnalysisManager &FAM;
  SmallPtrSet<const Function *, 8> Analysed;
  /// Each parent's calls that run an analysed chunk.
  DenseMap<const Function *, SmallVector<Instruction *, 2>> Loops;
  /// Whether each parent pushes a frame, so that what follows a call may
  /// run while the call does.
  DenseMap<const Function *, bool> Pushes;
  MapVector<Instruction *, LocalFacts> Locals;
  SmallVector<Instruction *, 16> ToScan;
  DenseMap<const Function *, SmallVector<ContextLoad, 8>> Loads;

  void track(Instruction *Local);
  void escape(Instruction *Local) { Locals[Local].Escaped = true; }
  void escapeAll(ArrayRef<Place> Places) {
    for (const Place &P : Places)
      escape(P.Local);
  }
  Instruction *localAt(Value *Ptr, const Function &F, int64_t &Offset) const;
  void scanParentUses(Instruction *Local);
  bool mayRunBeforeALoop(Instruction &I);
  bool pushesFrames(const Function &F);
  bool parentUseKeepsPrivate(Instruction *Local, Use &U, int64_t Offset);
  bool frameUseKeepsPrivate(Instruction *Frame, CallBase &CB, int64_t Offset);
  void walkChunk(Function &Chunk, Value *Ptr, ArrayRef<Place> Places);
  void readInChunk(Function &Chunk, LoadInst &Load, ArrayRef<Place> Places);
  void propagateEscapes();
  bool unchanging(const ContextLoad &CL) const;
};

ContextLocals::ContextLocals(Module &M, ArrayRef<Function *> Chunks,
                             FunctionAnalysisManager &FAM)
    : DL(M.getDataLayout()), FAM(FAM) {
  for (Function *Chunk : Chunks)
    Analysed.insert(Chunk);
  for (Function *Chunk : Chunks)
    for (User *U : Chunk->users()) {
      auto *Call = cast<CallBase>(U);
      Loops[Call->getFunction()].push_back(Call);
      track(cast<AllocaInst>(Call->getArgOperand(3)));
    }
  while (!ToScan.empty())
    scanParentUses(ToScan.pop_back_val());
  for (Function *Chunk : Chunks) {
    SmallVector<Place, 4> Contexts;
    for (User *U : Chunk->users())
      Contexts.push_back({cast<AllocaInst>(cast<CallBase>(U)->getArgOperand(3)), 0});
    walkChunk(*Chunk, Chunk->getArg(0), Contexts);
  }
  propagateEscapes();
}

void ContextLocals::track(Instruction *Local) {
  if (Locals.count(Local))
    return;
  Locals[Local];
  ToScan.push_back(Local);
}

/// The local of \p F that \p Ptr points into at a constant offset, or null.
Instruction *ContextLocals::localAt(Value *Ptr, const Function &F,
                                    int64_t &Offset) const {
  APInt Bytes(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Instruction *Local = privateLocal(Ptr->stripAndAccumulateConstantOffsets(
      DL, Bytes, /*AllowNonInbounds=*/true));
  if (!Local || Local->getFunction() != &F)
    return nullptr;
  Offset = Bytes.getSExtValue();
  return Local;
}

/// Records what the parent stores in \p Local and reads from it, and
/// marks it escaped if its address may leave the tracked locals.
void ContextLocals::scanParentUses(Instruction *Local) {
  SmallVector<std::pair<Value *, int64_t>, 8> Worklist{{Local, 0}};
  while (!Worklist.empty()) {
    auto [Ptr, Offset] = Worklist.pop_back_val();
    for (Use &U : Ptr->uses()) {
      if (auto *GEP = dyn_cast<GEPOperator>(U.getUser())) {
        APInt Bytes(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (GEP->getPointerOperand() == Ptr &&
            GEP->accumulateConstantOffset(DL, Bytes)) {
          Worklist.push_back({GEP, Offset + Bytes.getSExtValue()});
          continue;
        }
      }
      // What the parent does once its loops are over cannot change them.
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (I && !mayRunBeforeALoop(*I))
        continue;
      if (!parentUseKeepsPrivate(Local, U, Offset))
        escape(Local);
    }
  }
}

/// Whether \p I may run before one of its function's calls that run an
/// analysed chunk, in the same call of the function.
bool ContextLocals::mayRunBeforeALoop(Instruction &I) {
  Function &F = *I.getFunction();
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  for (Instruction *Loop : Loops.lookup(&F))
    if (isPotentiallyReachable(&I, Loop, nullptr, &DT, &LI))
      return true;
  return false;
}

/// Whether \p I publishes a frame to thieves.
bool isPush(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  return Callee && (Callee->getName() == runtimeName(RuntimeFn::Push) ||
                    Callee->getName() == runtimeName(RuntimeFn::PushPreserving));
}

bool ContextLocals::pushesFrames(const Function &F) {
  auto [It, Inserted] = Pushes.try_emplace(&F, false);
  if (Inserted)
    It->second = any_of(instructions(F), isPush);
  return It->second;
}

/// Whether the parent's use \p U of an address \p Offset bytes into
/// \p Local keeps it among the tracked locals; records links and reads.
bool ContextLocals::parentUseKeepsPrivate(Instruction *Local, Use &U,
                                          int64_t Offset) {
  auto *I = dyn_cast<Instruction>(U.getUser());
  if (!I)
    return false;
  const Function &Parent = *Local->getFunction();
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    Locals[Local].ParentReads.push_back(
        {Offset, DL.getTypeStoreSize(Load->getType()).getFixedValue()});
    return true;
  }
  if (auto *Store = dyn_cast<StoreInst>(I)) {
    if (!Store->isSimple())
      return false;
    if (U.getOperandNo() == 0) {
      // Its address goes into memory: a tracked local's field, or out.
      int64_t Field;
      Instruction *Holder = localAt(Store->getPointerOperand(), Parent, Field);
      if (!Holder)
        return false;
      track(Holder);
      Locals[Holder].Links.push_back({Field, {Local, Offset}});
      return true;
    }
    // A store into it of an address: the stored local is tracked, and its
    // own scan records the link.
    int64_t Unused;
    if (Store->getValueOperand()->getType()->isPointerTy())
      if (Instruction *Linked =
              localAt(Store->getValueOperand(), Parent, Unused))
        track(Linked);
    return true;
  }
  if (isa<ICmpInst>(I) || I->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(I))
    return true;
  // A memset writes no address.
  if (auto *Set = dyn_cast<MemSetInst>(I))
    return U.getOperandNo() == 0 && !Set->isVolatile();
  auto *CB = dyn_cast<CallBase>(I);
  if (!CB)
    return false;
  // The context itself, handed to a splitter that runs an analysed chunk.
  if (isSplitterCall(*CB))
    return Offset == 0 && U.getOperandNo() == 3 &&
           Analysed.count(
               dyn_cast<Function>(CB->getArgOperand(2)->stripPointerCasts()));
  // A call that keeps no copy of the address, and returns before what
  // follows runs (no push in the parent, which a thief could resume), may
  // have read anything in the local: links to a local are given away.
  if (CB->isArgOperand(&U) && CB->doesNotCapture(U.getOperandNo()) &&
      !pushesFrames(Parent)) {
    Locals[Local].ParentReads.push_back({0, WholeLocal});
    return true;
  }
  return isa<CallInst>(Local) && frameUseKeepsPrivate(Local, *CB, Offset);
}

/// Whether \p CB, a use of \p Frame's address \p Offset bytes in, keeps its
/// slots private. A frame's slots, past its resume and destroy pointers and
/// the runtime's header, are read only by the function's slow clone, which
/// runs only once the frame has been pushed; the runtime calls that may
/// take an unpushed frame read its header alone (frame_abi.h). A push, or
/// any call not known here, lets it out.
bool ContextLocals::frameUseKeepsPrivate(Instruction *Frame, CallBase &CB,
                                         int64_t Offset) {
  Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return false;
  StringRef Name = Callee->getName();
  bool Releases = Name == FrameFreeName && Offset == 0;
  bool Unwinds = (Name == runtimeName(RuntimeFn::Catch) ||
                  Name == runtimeName(RuntimeFn::Rethrow)) &&
                 Offset == WEFT_FRAME_PROMISE_OFFSET;
  if (!Releases && !Unwinds)
    return false;
  // The runtime reads, and may write, the header and the pointers before it.
  Locals[Frame].ParentReads.push_back(
      {0, WEFT_FRAME_PROMISE_OFFSET + WEFT_FRAME_SIZE});
  return true;
}

/// Follows \p Ptr, which points to one of \p Places, through \p Chunk.
void ContextLocals::walkChunk(Function &Chunk, Value *Ptr,
                              ArrayRef<Place> Places) {
  for (Use &U : Ptr->uses()) {
    User *User = U.getUser();
    if (auto *GEP = dyn_cast<GEPOperator>(User)) {
      APInt Bytes(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (GEP->getPointerOperand() == Ptr &&
          GEP->accumulateConstantOffset(DL, Bytes)) {
        SmallVector<Place, 2> Shifted;
        for (const Place &P : Places)
          Shifted.push_back({P.Local, P.Offset + Bytes.getSExtValue()});
        walkChunk(Chunk, GEP, Shifted);
        continue;
      }
    }
    auto *Load = dyn_cast<LoadInst>(User);
    if (Load && Load->isSimple() && U.getOperandNo() == 0) {
      readInChunk(Chunk, *Load, Places);
      continue;
    }
    // A store, a call, a phi: it may write them or let them out.
    escapeAll(Places);
  }
}

/// Records \p Load, which reads one of \p Places, and follows the address
/// it reads if it reads a link.
void ContextLocals::readInChunk(Function &Chunk, LoadInst &Load,
                                ArrayRef<Place> Places) {
  uint64_t Size = DL.getTypeStoreSize(Load.getType()).getFixedValue();
  bool ReadsWholeAddress = Load.getType()->isPointerTy();
  SmallVector<Place, 2> Targets;
  for (const Place &P : Places)
    for (const auto &[Field, Target] : Locals[P.Local].Links) {
      uint64_t LinkSize = DL.getPointerSize();
      if (!overlaps(P.Offset, Size, Field, LinkSize))
        continue;
      if (ReadsWholeAddress && P.Offset == Field)
        Targets.push_back(Target);
      else // an address read as data: it may go anywhere
        escape(Target.Local);
    }
  Loads[&Chunk].push_back({&Load, SmallVector<Place, 2>(Places)});
  if (!Targets.empty())
    walkChunk(Chunk, &Load, Targets);
}

/// A local that may be written or read by unknown code gives away the
/// addresses its links hold; so does a parent that reads a link back.
void ContextLocals::propagateEscapes() {
  for (auto &[Local, Facts] : Locals)
    for (const auto &[Field, Target] : Facts.Links)
      for (const auto &[Offset, Size] : Facts.ParentReads)
        if (overlaps(Offset, Size, Field, DL.getPointerSize()))
          escape(Target.Local);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &[Local, Facts] : Locals) {
      if (!Facts.Escaped)
        continue;
      for (const auto &[Field, Target] : Facts.Links) {
        LocalFacts &Linked = Locals[Target.Local];
        if (!Linked.Escaped)
          Linked.Escaped = Changed = true;
      }
    }
  }
}

/// Whether every place \p CL may read is inside an unchanging local.
bool ContextLocals::unchanging(const ContextLoad &CL) const {
  uint64_t Size = DL.getTypeStoreSize(CL.Load->getType()).getFixedValue();
  for (const Place &P : CL.Places) {
    auto Facts = Locals.find(P.Local);
    if (Facts == Locals.end() || Facts->second.Escaped)
      return false;
    std::optional<uint64_t> Bytes = localSize(*P.Local, DL);
    if (!Bytes || P.Offset < 0 || P.Offset + Size > *Bytes)
      return false;
  }
  return true;
}

SmallVector<LoadInst *, 8>
ContextLocals::unchangingLoads(Function &Chunk) const {
  SmallVector<LoadInst *, 8> Result;
  auto It = Loads.find(&Chunk);
  if (It == Loads.end())
    return Result;
  for (const ContextLoad &CL : It->second)
    if (unchanging(CL))
      Result.push_back(CL.Load);
  return Result;
}

/// Moves \p Unchanging, loads in \p Chunk of unchanging locals in the order
/// of their chains, to the end of its entry block. Returns true if any
/// moved.
bool hoistToEntry(Function &Chunk, ArrayRef<LoadInst *> Unchanging) {
  BasicBlock &Entry = Chunk.getEntryBlock();
  Instruction *InsertPoint = Entry.getTerminator();
  SmallPtrSet<LoadInst *, 8> ToHoist(Unchanging.begin(), Unchanging.end());
  DenseMap<Value *, Value *> AtEntry;
  // The copy at the entry of \p V, the chunk's context or an address
  // computed from it by constant offsets and loads to hoist; null if some
  // step of it cannot move.
  std::function<Value *(Value *)> Copy = [&](Value *V) -> Value * {
    if (isa<Argument>(V) || isa<Constant>(V))
      return V;
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return nullptr;
    if (I->getParent() == &Entry)
      return I;
    if (Value *Known = AtEntry.lookup(I))
      return Known;
    auto *Load = dyn_cast<LoadInst>(I);
    auto *GEP = dyn_cast<GetElementPtrInst>(I);
    if (!(Load && ToHoist.count(Load)) &&
        !(GEP && GEP->hasAllConstantIndices()))
      return nullptr;
    // Both keep their address in operand 0.
    Value *Base = Copy(I->getOperand(0));
    if (!Base)
      return nullptr;
    Instruction *Moved = I->clone();
    Moved->insertBefore(InsertPoint->getIterator());
    Moved->setName(I->getName());
    Moved->setOperand(0, Base);
    AtEntry[I] = Moved;
    return Moved;
  };
  SmallVector<std::pair<LoadInst *, Value *>, 8> Moved;
  for (LoadInst *Load : Unchanging) {
    if (Load->getParent() == &Entry)
      continue;
    if (Value *AtEntryCopy = Copy(Load))
      Moved.push_back({Load, AtEntryCopy});
  }
  for (auto &[Load, AtEntryCopy] : Moved) {
    Load->replaceAllUsesWith(AtEntryCopy);
    Load->eraseFromParent();
    ++NumContextLoadsHoisted;
  }
  return !Moved.empty();
}

} // namespace

PreservedAnalyses HoistContextLoadsPass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  SmallVector<Function *, 8> Chunks;
  for (Function &F : M)
    if (onlyRunBySplitters(F))
      Chunks.push_back(&F);
  if (Chunks.empty())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  ContextLocals Context(M, Chunks, FAM);
  bool Changed = false;
  for (Function *Chunk : Chunks) {
    if (!hoistToEntry(*Chunk, Context.unchangingLoads(*Chunk)))
      continue;
    Changed = true;
    simplifyChangedChunk(*Chunk, Simplify, FAM);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
