//===- ImplicitSyncs.cpp - The sync at the end of a spawning function -----===//
//
// Every spawning function syncs before it returns, and it must do so before
// its locals are destroyed: a child may still be using them, and in the
// serial elision every child has finished by the time they go. The IR pass
// also syncs at each `ret`, but by then the destructors have run. So the
// front end puts a sync before every return statement and after the last
// statement of the body, inside the scope whose locals the child may use:
//
//   long f() {                        long f() {
//     Obj o;                            Obj o;
//     x = cilk_spawn g(&o);   ==>       x = cilk_spawn g(&o);
//     if (c) return 1;                  if (c) { __weft_sync_marker(); return 1; }
//     h();                              { h(); __weft_sync_marker(); }
//   }                                 }                       // ~Obj runs here
//
// A sync before `return e` instead of after `e` is evaluated is safe: in the
// serial elision every earlier child finished before `e` too. A spawn inside
// `e` itself is still synced by the pass at the `ret`.
//
// A try block that spawns also ends with a sync, as in OpenCilk, so that a
// child's exception is raised where the try block's handlers catch it.
//
// A return inside a catch handler gets no sync of its own: a slow clone
// that suspended there would finish the handler on another thread, and the
// C++ runtime keeps the exceptions being handled per thread. The pass's
// sync at the `ret` still waits for the children, after the handler.
//
// The same walk warns about two mistakes that compile but lose data: a sync
// in a function that never spawns, and a spawn whose result variable goes
// out of scope before any sync (the child then writes storage that is dead,
// or reused by the next loop iteration).
//
//===----------------------------------------------------------------------===//

#include "frontend/Diagnostics.h"
#include "frontend/SpawnRewriter.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"

using namespace clang;

namespace weft {

void SpawnRewriter::warning(SourceLocation Loc, StringRef Msg) {
  if (!Warned.insert(Loc).second)
    return;
  reportWarning(Ctx.getDiagnostics(), Loc, Msg);
}

void SpawnRewriter::walkLambda(LambdaExpr *Lambda, BodyWalk &Outer) {
  // A generic lambda's call operator is a template, and this body is its
  // pattern: only checked, as a function template's is. Sema hands each
  // instantiation of the operator to the consumer as a top-level
  // declaration (HandleTopLevelDecl), where it is rewritten on its own.
  BodyWalk Inner(Lambda->getCallOperator(),
                 Outer.Dependent || Lambda->isGenericLambda(),
                 Lambda->getBody());
  WalkedFunctions.insert(Lambda->getCallOperator());
  Inner.Shared = Outer.Shared; // the enclosing pattern holds the lambda's
  walkChildren(Lambda, Inner);
  // The walk may have rebuilt the body (spawn end markers); the call
  // operator, which CodeGen emits, must get the new one too.
  auto *Body = const_cast<Stmt *>(Inner.Body);
  if (CXXMethodDecl *Call = Lambda->getCallOperator(); Body != Call->getBody())
    Call->setBody(Body);
  finishBody(dyn_cast_or_null<CompoundStmt>(Body), Inner);
}

void SpawnRewriter::noteSpawnResult(const Expr *Destination, const Mark &M,
                                    BodyWalk &Walk) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Destination->IgnoreParenImpCasts());
  if (const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr)
    noteSpawnResult(Var, M, Walk);
}

void SpawnRewriter::noteSpawnResult(const VarDecl *Var, const Mark &M,
                                    BodyWalk &Walk) {
  // A reference names storage elsewhere; a static outlives every sync; an
  // implicit variable is the front end's own (ReturnSpawns.cpp).
  if (Var->isLocalVarDecl() && !Var->isStaticLocal() && !Var->isImplicit() &&
      !Var->getType()->isReferenceType())
    Walk.Results.push_back({Var, M.Written, syncsSoFar(Walk)});
}

/// Explicit syncs and the syncs that end cilk_scope blocks, walked so far.
unsigned SpawnRewriter::syncsSoFar(const BodyWalk &Walk) {
  return Walk.Syncs.size() + Walk.ScopeSyncs;
}

void SpawnRewriter::checkScopeEnd(CompoundStmt *Scope, BodyWalk &Walk) {
  if (Scope == Walk.Body)
    return; // the implicit sync at its end covers it
  llvm::SmallPtrSet<const VarDecl *, 8> Declared;
  for (Stmt *S : Scope->body())
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (Decl *D : DS->decls())
        if (auto *Var = dyn_cast<VarDecl>(D))
          Declared.insert(Var);
  llvm::erase_if(Walk.Results, [&](const SpawnResult &R) {
    if (!Declared.count(R.Var))
      return false;
    if (R.SyncsBefore == syncsSoFar(Walk) && !Walk.Dependent)
      warning(R.Spawn,
              ("'" + R.Var->getName() +
               "' goes out of scope before the next sync: the spawned "
               "call's result is lost, and the child may still write it "
               "after its storage is reused; add a sync in this scope")
                  .str());
    return true;
  });
}

void SpawnRewriter::finishBody(CompoundStmt *Body, BodyWalk &Walk) {
  reportUnsupported(Walk); // UnsupportedConstructs.cpp
  if (Walk.Dependent || !Body)
    return;
  if (Walk.Spawns == 0) {
    for (SourceLocation Sync : Walk.Syncs)
      warning(Sync, "a sync in a function that never spawns does nothing");
    return;
  }
  // A return that no spawn can precede (none before it in the source, and
  // no loop or label to come back through) needs no sync.
  if (Walk.HasLabels)
    Walk.Returns.append(Walk.EarlyReturns);
  for (Stmt **Return : Walk.Returns) {
    SourceLocation Loc = (*Return)->getBeginLoc();
    Stmt *Synced[] = {makeSyncCall(Loc), *Return};
    *Return = CompoundStmt::Create(Ctx, Synced, FPOptionsOverride(), Loc, Loc);
  }
  syncAtEnd(Body);
}

/// Puts a sync after the last statement of \p Block, inside its scope, so
/// that its locals are destroyed after the sync.
void SpawnRewriter::syncAtEnd(CompoundStmt *Block) {
  if (Block->body_empty() || isa<ReturnStmt>(Block->body_back()))
    return;
  Stmt *&Last = Block->body_begin()[Block->size() - 1];
  SourceLocation End = Block->getRBracLoc();
  Stmt *Synced[] = {Last, makeSyncCall(End)};
  Last = CompoundStmt::Create(Ctx, Synced, FPOptionsOverride(),
                              Last->getBeginLoc(), End);
}

/// A try block that spawns ends with a sync, as in OpenCilk: a child's
/// exception then surfaces inside the try block, where its handlers catch
/// it, as they do in the serial elision.
void SpawnRewriter::walkTry(CXXTryStmt *Try, BodyWalk &Walk) {
  unsigned SpawnsBefore = Walk.Spawns;
  for (Stmt *&Child : Try->children()) {
    bool IsBlock = Child == Try->getTryBlock();
    walk(Child, Walk);
    if (IsBlock && Walk.Spawns != SpawnsBefore && !Walk.Dependent)
      if (auto *Block = dyn_cast<CompoundStmt>(Child))
        syncAtEnd(Block);
  }
}

} // namespace weft
