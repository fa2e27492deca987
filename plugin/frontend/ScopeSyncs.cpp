//===- ScopeSyncs.cpp - The sync on every way out of a cilk_scope block ---===//
//
// `cilk_scope { ... }` (OpenCilk) is a block whose children have all
// finished when control leaves it, however it leaves: falling off the end,
// or a break, continue or goto to a statement outside it. A scope that
// spawns therefore gets a sync before each of those exits, inside the
// block, so that its locals outlive the children that may use them:
//
//   for (...) cilk_scope {            for (...) {
//     Obj o;                            Obj o;
//     cilk_spawn f(&o);       ==>       cilk_spawn f(&o);
//     if (c) break;                     if (c) { __weft_sync_marker(); break; }
//     g();                              { g(); __weft_sync_marker(); }
//   }                                 }                      // ~Obj runs here
//
// The block body of a parallel loop is such a scope too, in each
// iteration's walk (ParallelForRewriter.cpp): an iteration's children
// finish before the body's locals are destroyed, whether the body ends or a
// `continue` leaves it.
//
// A return needs nothing here: the function's implicit sync precedes
// every return that a spawn may precede (ImplicitSyncs.cpp).
//
// A jump leaves a block when its target lies outside it: for a break, when
// no loop or switch opened inside the block encloses it; for a continue, no
// loop; for a goto, when the label is not in the block, which is only known
// once the whole block has been walked. So each open scope collects the
// jumps that may leave it, and decides at its end. A jump that leaves a
// scope that did not spawn may still leave an enclosing one that did; it
// moves on to that scope.
//
// The sync waits for every child of the function, not only those of the
// scope: a child spawned before the scope is waited for at its end too.
// That takes nothing from the serial elision's results, only some
// parallelism that OpenCilk keeps.
//
//===----------------------------------------------------------------------===//

#include "frontend/SpawnRewriter.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace weft {

/// Starts a cilk_scope block if \p Block is the target of a scope mark, or
/// the body of a parallel loop (each iteration's children finish before
/// the body's locals are gone).
bool SpawnRewriter::openScope(CompoundStmt *Block, BodyWalk &Walk) {
  SourceLocation Brace = Block->getLBracLoc();
  Mark *M = Marks.find(MarkKind::Scope, Brace);
  if (!M && (Brace.isInvalid() || Brace != Walk.IterationBody))
    return false;
  if (M)
    M->Matched = true;
  Walk.Scopes.push_back({Walk.Spawns, Walk.LoopDepth,
                         Walk.LoopDepth + Walk.SwitchDepth, {}, {}});
  return true;
}

/// Records a break, continue or goto that may leave the innermost open
/// scope, and a label declared in it.
void SpawnRewriter::noteScopeJump(Stmt *&S, BodyWalk &Walk) {
  if (Walk.Scopes.empty())
    return;
  OpenScope &Innermost = Walk.Scopes.back();
  if (auto *Label = dyn_cast<LabelStmt>(S)) {
    Innermost.Labels.insert(Label->getDecl());
    return;
  }
  ScopeExit Exit{&S, 0};
  if (isa<BreakStmt>(S))
    Exit.Depth = Walk.LoopDepth + Walk.SwitchDepth;
  else if (isa<ContinueStmt>(S))
    Exit.Depth = Walk.LoopDepth;
  else if (!isa<GotoStmt>(S))
    return;
  if (leaves(Exit, Innermost))
    Innermost.Exits.push_back(Exit);
}

/// Whether \p Exit, recorded in \p Scope or in a scope nested in it,
/// leaves \p Scope. A goto's answer is final only once \p Scope has been
/// walked, with every label in it.
bool SpawnRewriter::leaves(const ScopeExit &Exit, const OpenScope &Scope) {
  const Stmt *Jump = *Exit.Slot;
  if (const auto *Goto = dyn_cast<GotoStmt>(Jump))
    return !Scope.Labels.count(Goto->getLabel());
  if (isa<BreakStmt>(Jump))
    return Exit.Depth == Scope.BreakDepth;
  return Exit.Depth == Scope.LoopDepth;
}

/// Ends the innermost open scope, \p Block: if it spawned, a sync before
/// each jump out of it and at its end; otherwise its jumps out may still
/// leave the enclosing scope.
void SpawnRewriter::closeScope(CompoundStmt *Block, BodyWalk &Walk) {
  OpenScope Scope = Walk.Scopes.pop_back_val();
  OpenScope *Outer = Walk.Scopes.empty() ? nullptr : &Walk.Scopes.back();
  if (Outer)
    Outer->Labels.insert(Scope.Labels.begin(), Scope.Labels.end());
  bool Syncs = Walk.Spawns != Scope.SpawnsBefore && !Walk.Dependent;
  for (ScopeExit &Exit : Scope.Exits) {
    if (!leaves(Exit, Scope))
      continue; // a goto to a label in the block
    if (Syncs)
      syncBefore(*Exit.Slot);
    else if (Outer && (isa<GotoStmt>(*Exit.Slot) || leaves(Exit, *Outer)))
      Outer->Exits.push_back(Exit);
  }
  if (Syncs) {
    syncAtEnd(Block);
    ++Walk.ScopeSyncs;
  }
}

/// Puts a sync before the jump in \p S.
void SpawnRewriter::syncBefore(Stmt *&S) {
  SourceLocation Loc = S->getBeginLoc();
  Stmt *Synced[] = {makeSyncCall(Loc), S};
  S = CompoundStmt::Create(Ctx, Synced, FPOptionsOverride(), Loc, Loc);
}

} // namespace weft
