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
// -fmerge-functions is the user's to choose); so are the spawning functions
// themselves (the fast clones), whose addresses the program may compare.
// A merged clone's callers may in turn become identical (two slow clones
// that called two identical helpers), so the comparison repeats until
// nothing more merges.
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"
#include "shared/Markers.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/StructuralHash.h"
#include "llvm/Transforms/Utils/FunctionComparator.h"

#define DEBUG_TYPE "weft-merge-clones"

using namespace llvm;

namespace weft {
namespace {

STATISTIC(NumMergedClones, "Clones replaced by an identical one");

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

/// One round: each clone identical to one kept before it (in module order,
/// so the result does not depend on hashing) is replaced by that one.
bool mergeOnce(Module &M) {
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
        return FunctionComparator(K, F, &Numbers).compare() == 0;
      });
      if (Same == Kept.end())
        Kept.push_back(F);
      else
        Copies.push_back({F, *Same});
    }
  }
  for (auto [Copy, Kept] : Copies) {
    Copy->replaceAllUsesWith(Kept);
    Copy->eraseFromParent();
    ++NumMergedClones;
  }
  return !Copies.empty();
}

} // namespace

bool mergeIdenticalClones(Module &M) {
  bool Changed = false;
  while (mergeOnce(M))
    Changed = true;
  return Changed;
}

PreservedAnalyses MergeClonesPass::run(Module &M, ModuleAnalysisManager &) {
  return mergeIdenticalClones(M) ? PreservedAnalyses::none()
                                 : PreservedAnalyses::all();
}

} // namespace weft
