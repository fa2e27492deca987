//===- SynthesizedScope.h - Sema as it is inside a function body ----------===//
//
// The rewrite builds new statements with Sema after the body was parsed (a
// parallel loop, ParallelForRewriter.cpp; a spawned assignment's helper,
// AssignSpawns.cpp). Sema then needs the state it has while a body is
// parsed: the function as the current context, with an evaluation context
// and a function scope of its own.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SYNTHESIZEDSCOPE_H
#define WEFT_PLUGIN_SYNTHESIZEDSCOPE_H

#include "clang/Sema/Sema.h"

namespace weft {

/// Sema inside \p Fn, around the building of one construct. Errors are
/// trapped, not printed: the rewriter reports one error of its own that
/// says what the construct needs. The trap outlives the function scope,
/// whose end may flush deferred warnings.
class SynthesizedScope {
public:
  SynthesizedScope(clang::Sema &S, clang::FunctionDecl *Fn)
      : S(S), Trap(S), Function(S, Fn), SavedCleanup(S.Cleanup) {
    S.Cleanup.reset();
  }
  ~SynthesizedScope() { S.Cleanup = SavedCleanup; }
  bool failed() const { return Trap.hasErrorOccurred(); }

private:
  clang::Sema &S;
  clang::Sema::SFINAETrap Trap;
  clang::Sema::SynthesizedFunctionScope Function;
  clang::CleanupInfo SavedCleanup;
};

} // namespace weft

#endif // WEFT_PLUGIN_SYNTHESIZEDSCOPE_H
