//===- ParallelForRewriter.cpp - Parallel loops in the body walk ----------===//
//
// The walk (SpawnRewriter.cpp) hands every statement here first. A marked
// loop (ParallelForMarks.cpp), or the switch that `#pragma cilk grainsize`
// put around one, is checked (ParallelForForm.cpp) and replaced with its
// canonical form (ParallelForBuild.h), which the IR pass outlines
// (ParallelFor.cpp).
//
// One iteration is walked as a function of its own, since it becomes the
// body of the outlined function: its spawns, its syncs, the implicit sync
// at its end (after `do body while (0)`, so that a `continue` reaches it
// too), and the constructs a spawning function cannot contain are its own,
// not the enclosing function's. The per-iteration sync is OpenCilk's: an
// iteration's children finish before the iteration does, and before its
// loop variable is gone.
//
// A template pattern is only checked; each instantiation is rewritten.
//
//===----------------------------------------------------------------------===//

#include "ParallelFor.h"
#include "ParallelForBuild.h"
#include "SpawnRewriter.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace weft {
namespace {

/// Sema as it is while a function body is parsed, around the building of
/// one loop: the function is the current context, with an evaluation
/// context and a function scope of its own. Errors are trapped, not
/// printed: the rewriter reports one error of its own that says what the
/// loop needs. The trap outlives the function scope, whose end may flush
/// deferred warnings.
class LoopSemaScope {
public:
  LoopSemaScope(Sema &S, FunctionDecl *Fn)
      : S(S), Trap(S), Function(S, Fn), SavedCleanup(S.Cleanup) {
    S.Cleanup.reset();
  }
  ~LoopSemaScope() { S.Cleanup = SavedCleanup; }
  bool failed() const { return Trap.hasErrorOccurred(); }

private:
  Sema &S;
  Sema::SFINAETrap Trap;
  Sema::SynthesizedFunctionScope Function;
  CleanupInfo SavedCleanup;
};

Expr *falseCondition(ASTContext &Ctx, SourceLocation Loc) {
  if (Ctx.getLangOpts().CPlusPlus)
    return new (Ctx) CXXBoolLiteralExpr(false, Ctx.BoolTy, Loc);
  return IntegerLiteral::Create(Ctx, llvm::APInt(Ctx.getIntWidth(Ctx.IntTy), 0),
                                Ctx.IntTy, Loc);
}

const char *buildFailure(LoopVarKind Kind) {
  if (Kind == LoopVarKind::Iterator)
    return "the loop variable of a cilk_for must be a random-access "
           "iterator: 'end - begin' must give an integer, and 'begin + n' "
           "and the condition's comparison must be valid";
  return "internal error: the trip count of this cilk_for could not be "
         "computed";
}

} // namespace

const PforCallees &SpawnRewriter::pforCallees() {
  if (Pfor.Marker)
    return Pfor;
  QualType ULL = Ctx.UnsignedLongLongTy, Id = Ctx.UnsignedIntTy;
  Pfor.Marker = makeMarker(PforMarkerName, Ctx.VoidTy,
                           {ULL, Ctx.LongLongTy, Id});
  Pfor.Lo = makeMarker(PforLoName, ULL, {Id});
  Pfor.Hi = makeMarker(PforHiName, ULL, {Id});
  Pfor.End = makeMarker(PforEndName, Ctx.VoidTy, {Id});
  Pfor.Catch = makeMarker(PforCaughtName, Ctx.VoidTy,
                          {Ctx.getPointerType(Ctx.VoidPtrTy), Id});
  // Rethrows, after the loop, the first exception an iteration threw.
  Pfor.Rethrow = makeMarker(PforRethrowName, Ctx.VoidTy, {Ctx.VoidPtrTy},
                            /*MayThrow=*/true);
  return Pfor;
}

/// Whether a spawn is marked anywhere in \p S (a loop's header, which the
/// parent evaluates once before the loop: nothing there may run in
/// parallel with the iterations).
bool SpawnRewriter::headerSpawns(const Stmt *S) {
  if (!S)
    return false;
  if (isa<LambdaExpr>(S))
    return false; // its own function
  if (Marks.find(MarkKind::Spawn, S->getBeginLoc()))
    return true;
  for (const Stmt *Child : S->children())
    if (headerSpawns(Child))
      return true;
  return false;
}

bool SpawnRewriter::walkParallelLoop(Stmt *&S, BodyWalk &Walk) {
  Expr *Grain = nullptr;
  Stmt *Marked = S;
  if (auto *Switch = dyn_cast<SwitchStmt>(S)) {
    Mark *M = Marks.find(MarkKind::Grainsize, Switch->getSwitchLoc());
    if (!M)
      return false;
    M->Matched = true;
    auto *Default = dyn_cast_or_null<DefaultStmt>(Switch->getBody());
    Marked = Default ? Default->getSubStmt() : nullptr;
    auto *For = dyn_cast_or_null<ForStmt>(Marked);
    auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Marked);
    SourceLocation ForLoc = For     ? For->getForLoc()
                            : Range ? Range->getForLoc()
                                    : SourceLocation();
    if (!ForLoc.isValid() || !Marks.find(MarkKind::For, ForLoc)) {
      error(M->Written, "'#pragma cilk grainsize' must be followed by a "
                        "cilk_for loop");
      return false;
    }
    Grain = Switch->getCond();
  }
  if (auto *Range = dyn_cast<CXXForRangeStmt>(Marked)) {
    if (Mark *M = Marks.find(MarkKind::For, Range->getForLoc())) {
      M->Matched = true;
      error(M->Written, "a cilk_for over a range ('for (x : v)') is not "
                        "supported; write it over indices or iterators");
    }
    return false;
  }
  auto *Loop = dyn_cast<ForStmt>(Marked);
  Mark *M = Loop ? Marks.find(MarkKind::For, Loop->getForLoc()) : nullptr;
  if (!M)
    return false;
  M->Matched = true;
  return rewriteParallelLoop(S, Loop, Grain, *M, Walk);
}

/// Replaces \p S (the loop, or the switch around it) with the loop's
/// canonical form. Returns false, after reporting why, if the loop cannot
/// run in parallel; the walk then goes on as for a serial loop.
bool SpawnRewriter::rewriteParallelLoop(Stmt *&S, ForStmt *Loop, Expr *Grain,
                                        const Mark &M, BodyWalk &Walk) {
  LoopProblems Problems;
  std::optional<LoopForm> Form =
      analyzeLoopHeader(Ctx, Loop, Walk.Dependent, Problems);
  checkLoopBody(Loop->getBody(), Form ? Form->Var : nullptr, Problems);
  if (!Walk.Dependent)
    checkJumpsIntoLoop(Walk.Body, Loop, Problems);
  const Stmt *Header[] = {Loop->getInit(), Loop->getCond(), Loop->getInc()};
  for (const Stmt *Part : Header)
    if (headerSpawns(Part))
      Problems.push_back({Part->getBeginLoc(),
                          "the header of a cilk_for cannot spawn: it runs "
                          "once, before the iterations"});
  for (const LoopProblem &P : Problems)
    error(fileLoc(P.Loc), P.Msg);
  if (!Problems.empty() || Walk.Dependent || !Form)
    return false;
  if (!SemaRef) {
    error(M.Written, "internal error: cilk_for needs the plugin's Sema");
    return false;
  }
  // The constant evaluator runs the body as written, and cannot call the
  // runtime: a constexpr function keeps its loop serial.
  if (Walk.Function->isConstexprSpecified() || Walk.Function->isConsteval()) {
    warning(M.Written, "cilk_for in a constexpr function runs serially");
    return false;
  }

  auto *Fn = const_cast<FunctionDecl *>(Walk.Function);
  ParallelLoopBuilder Builder(*SemaRef, Fn, *Form, pforCallees());
  bool Built;
  {
    LoopSemaScope Scope(*SemaRef, Fn);
    Built = Builder.build(Grain) && !Scope.failed();
  }
  if (!Built) {
    error(M.Written, buildFailure(Form->Kind));
    return false;
  }
  CompoundStmt *Iteration = walkIteration(Form->Var, Loop->getBody(), Walk);
  CompoundStmt *Result = Builder.assemble(Iteration);
  // The declarations of begin, limit and stride hold the user's
  // expressions, which may contain lambdas that spawn.
  for (unsigned I = 0, E = Builder.prologueSize(); I != E; ++I)
    walk(Result->body_begin()[I], Walk);
  S = Result;
  return true;
}

/// `{ T i = ...; do body while (0); }`, walked as a function body of its
/// own (it becomes one): returns the block with its implicit sync.
CompoundStmt *SpawnRewriter::walkIteration(VarDecl *Var, Stmt *Body,
                                           BodyWalk &Outer) {
  SourceLocation Begin = Body->getBeginLoc(), End = Body->getEndLoc();
  Stmt *Parts[] = {
      new (Ctx) DeclStmt(DeclGroupRef(Var), Var->getBeginLoc(),
                         Var->getEndLoc()),
      new (Ctx) DoStmt(Body, falseCondition(Ctx, End), Begin, End, End)};
  Stmt *Iteration =
      CompoundStmt::Create(Ctx, Parts, FPOptionsOverride(), Begin, End);
  BodyWalk Inner(Outer.Function, /*Dependent=*/false, Iteration);
  Inner.Shared = Outer.Shared;
  walk(Iteration, Inner);
  auto *Block = cast<CompoundStmt>(Iteration);
  finishBody(Block, Inner);
  return Block;
}

} // namespace weft
