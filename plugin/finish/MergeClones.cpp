//===- MergeClones.cpp - One copy of each identical clone -----------------===//
//
// A template instantiated twice often lowers to identical clones. parlaylib's
// parallel_for(start, end, f, grain) is called with an rvalue lambda, F =
// L, and recurses on the lvalue `f`, F = L&: two instances, whose loop
// bodies outlined for the splitter do the same f(i), and whose slow clones
// both run the continuation parallel_for<L&>(mid, end, f, grain). In
// parlaylib's BFS.cpp 166 of 289 outlined bodies and 120 of 284 slow clones
// repeat another byte for byte. The serial elision has no such functions,
// and the program never sees their addresses: a slow clone's is stored in
// its frame for a thief, a body's is handed to the splitter, a spawn
// helper's is only called. So, at the end of the pipeline, each function
// Weft made is compared (LLVM's FunctionComparator, as MergeFunctions does)
// with the others of its structural hash, and a copy of one already kept
// is replaced by it everywhere and deleted:
//
//   define internal void @pf_L.resume(ptr %fr)  { ... call @pf_Lref(...) }
//   define internal void @pf_Lref.resume(ptr %fr) { ... call @pf_Lref(...) }
//   store ptr @pf_L.resume, ptr %fr        ==>   store ptr @pf_Lref.resume, ...
//
// The program's own functions are left alone, identical or not (Clang's
// -fmerge-functions is the user's to choose). A merged clone's callers may
// in turn become identical (two slow clones that called two identical
// helpers), so the comparison repeats until nothing more merges.
//
// The fast clones of the two instances are twins as well, once their slow
// clones and loop bodies are one: parallel_for<L> does all that
// parallel_for<L&> does, calling parallel_for<L&> where parallel_for<L&>
// calls itself. Their addresses the program may compare, so the twin that
// calls the other keeps its symbol, linkage and attributes, and its body
// becomes a call of the other (as MergeFunctions makes a thunk):
//
//   define linkonce_odr void @pf_L(i64 %lo, ...) {   ; before: a fast clone,
//     ... spawn @pf_Lref(%lo, %mid); @pf_Lref(...)   ; a frame, pushes, pops
//   define linkonce_odr void @pf_L(i64 %lo, ...) {   ; after
//     tail call void @pf_Lref(i64 %lo, ...)
//     ret void
//
// In BFS.cpp 114 of the 284 fast clones forward so. This runs early in
// weft-finish, before the fast path is inlined and before a fast clone's
// last recursive call becomes a loop (SpawnTailCalls.cpp), after which a
// self-recursive twin no longer looks like the other; the clones are
// merged once more at the end, as the rest of weft-finish left them.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/Markers.h"
#include "shared/TwinFunctions.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/StructuralHash.h"
#include "llvm/Transforms/Utils/FunctionComparator.h"

#define DEBUG_TYPE "weft-merge-clones"

using namespace llvm;

namespace weft {
namespace {

STATISTIC(NumMergedClones, "Clones replaced by an identical one");
STATISTIC(NumForwardedTwins,
          "Spawning functions that call their identical twin instead");

/// Whether the program never sees \p F's address: a function the lowering
/// outlined, or a slow clone that coro-split made of a spawning function
/// (which keeps the spawning function's attributes and its name with a
/// suffix; the spawning function itself keeps its plain name).
bool isWeftClone(const Function &F) {
  if (F.isDeclaration() || !F.hasLocalLinkage())
    return false;
  if (F.hasFnAttribute(OutlinedFunctionAttr))
    return true;
  if (!F.hasFnAttribute(SpawningFunctionAttr))
    return false;
  StringRef Name = F.getName();
  return Name.ends_with(".resume") || Name.ends_with(".destroy") ||
         Name.ends_with(".cleanup");
}

/// What FunctionComparator leaves out and a merge must still agree on: the
/// personality (a slow clone of a C function may have the C one, whose
/// catch-all would not catch what the C++ one does) and the comdat.
bool sameSurroundings(const Function &A, const Function &B) {
  return personalityOf(A) == personalityOf(B) &&
         A.getComdat() == B.getComdat();
}

/// One round: each clone identical to one kept before it (in module order,
/// so the result does not depend on hashing) is replaced by that one; a
/// replaced one in \p Touched gives its place there to the one kept.
bool mergeOnce(Module &M, SmallPtrSetImpl<Function *> *Touched) {
  MapVector<uint64_t, SmallVector<Function *, 2>> ByHash;
  for (Function &F : M)
    if (isWeftClone(F))
      ByHash[StructuralHash(F)].push_back(&F);

  GlobalNumberState Numbers;
  SmallVector<std::pair<Function *, Function *>, 16> Copies; // copy, kept
  for (auto &Entry : ByHash) {
    SmallVector<Function *, 2> Kept;
    for (Function *F : Entry.second) {
      auto Same = find_if(Kept, [&](Function *K) {
        return sameSurroundings(*K, *F) &&
               FunctionComparator(K, F, &Numbers).compare() == 0;
      });
      if (Same == Kept.end())
        Kept.push_back(F);
      else
        Copies.push_back({F, *Same});
    }
  }
  for (auto [Copy, Kept] : Copies) {
    if (Touched && Touched->erase(Copy))
      Touched->insert(Kept);
    Copy->replaceAllUsesWith(Kept);
    Copy->eraseFromParent();
    ++NumMergedClones;
  }
  return !Copies.empty();
}

/// The spawning functions \p F calls directly, other than itself, of its
/// own type: the instances a twin would recurse into.
SmallSetVector<Function *, 2> spawningCallees(Function &F) {
  SmallSetVector<Function *, 2> Callees;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee != &F && !Callee->isDeclaration() &&
          Callee->hasFnAttribute(SpawningFunctionAttr) &&
          Callee->getFunctionType() == F.getFunctionType() &&
          !isWeftClone(*Callee))
        Callees.insert(Callee);
  return Callees;
}

} // namespace

bool mergeTwinSpawningFunctions(Module &M) {
  GlobalNumberState Numbers;
  SmallVector<std::pair<Function *, Function *>, 8> Twins; // F, its twin
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(SpawningFunctionAttr) ||
        isWeftClone(F))
      continue;
    for (Function *Callee : spawningCallees(F))
      if (isTwinOf(F, *Callee, Numbers, /*NounwindInvokesAsCalls=*/false)) {
        Twins.push_back({&F, Callee});
        break;
      }
  }
  unsigned Forwarded = forwardToTwins(Twins);
  NumForwardedTwins += Forwarded;
  return Forwarded != 0;
}

bool mergeIdenticalClones(Module &M, SmallPtrSetImpl<Function *> *Touched) {
  bool Changed = false;
  while (mergeOnce(M, Touched))
    Changed = true;
  return Changed;
}

PreservedAnalyses MergeClonesPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = mergeIdenticalClones(M);
  Changed |= mergeTwinSpawningFunctions(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
