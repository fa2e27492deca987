//===- ParallelForRewriter.cpp - Parallel loops in the body walk ----------===//
//
// The walk (SpawnRewriter.cpp) hands every statement here first. A marked
// loop (ParallelForMarks.cpp), or the switch that `#pragma cilk grainsize`
// put around one, is checked (ParallelForForm.cpp) and replaced with its
// canonical form (ParallelForBuild.h), which the IR pass outlines
// (ParallelFor.cpp). A loop over a range is the loop over its iterator
// that C++ defines it to be, with the range declared before it
// (rewriteRangeLoop).
//
// One iteration is walked as a function of its own, since it becomes the
// body of the outlined function: its spawns, its syncs, the implicit sync
// at its end (after `do body while (0)`, so that a `continue` reaches it
// too), and the constructs a spawning function cannot contain are its own,
// not the enclosing function's. The per-iteration sync is OpenCilk's: an
// iteration's children finish before the iteration does, and before its
// loop variable and the body's locals are gone.
//
// A template pattern is only checked; each instantiation is rewritten.
//
//===----------------------------------------------------------------------===//

#include "lower/parallel_for/ParallelFor.h"
#include "frontend/parallel_for/ParallelForBuild.h"
#include "frontend/SpawnRewriter.h"
#include "frontend/SynthesizedScope.h"
#include "shared/RuntimeABI.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace weft {
namespace {

Expr *falseCondition(ASTContext &Ctx, SourceLocation Loc) {
  if (Ctx.getLangOpts().CPlusPlus)
    return new (Ctx) CXXBoolLiteralExpr(false, Ctx.BoolTy, Loc);
  return IntegerLiteral::Create(Ctx, llvm::APInt(Ctx.getIntWidth(Ctx.IntTy), 0),
                                Ctx.IntTy, Loc);
}

/// Whether the token `constexpr` is written from \p From up to \p To, both
/// in one file (raw tokens: macros are not expanded).
bool writesConstexpr(const ASTContext &Ctx, SourceLocation From,
                     SourceLocation To) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [File, Begin] = SM.getDecomposedLoc(SM.getFileLoc(From));
  auto [EndFile, End] = SM.getDecomposedLoc(SM.getFileLoc(To));
  if (File != EndFile || Begin > End)
    return false;
  StringRef Buffer = SM.getBufferData(File);
  Lexer Lex(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(),
            Buffer.begin() + Begin, Buffer.end());
  Token Tok;
  for (bool AtEnd = false; !AtEnd;) {
    AtEnd = Lex.LexFromRawLexer(Tok);
    if (SM.getFileOffset(Tok.getLocation()) >= End)
      return false;
    if (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "constexpr")
      return true;
  }
  return false;
}

/// Whether the author declared \p Fn constexpr or consteval. Since C++17 a
/// lambda's call operator is constexpr without the keyword whenever its
/// body allows it; only the keyword, between the lambda's `[` and its
/// body, says that the author means to evaluate it at compile time.
bool declaredConstexpr(const ASTContext &Ctx, const FunctionDecl *Fn) {
  if (Fn->isConsteval())
    return true;
  if (!Fn->isConstexprSpecified())
    return false;
  const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
  if (!Method || !Method->getParent()->isLambda() || !Fn->getBody())
    return true;
  return writesConstexpr(Ctx, Method->getLocation(),
                         Fn->getBody()->getBeginLoc());
}

const char *const HeaderSpawns =
    "the header of a cilk_for cannot spawn: it runs once, before the "
    "iterations";

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
  Pfor.Rethrow = makeMarker(runtimeName(RuntimeFn::PforRethrow), Ctx.VoidTy,
                            {Ctx.VoidPtrTy},
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
  if (spawnMark(S->getBeginLoc()))
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
    if (!Marked || !Marks.find(MarkKind::For, forLoc(Marked))) {
      error(M->Written, "'#pragma cilk grainsize' must be followed by a "
                        "cilk_for loop");
      return false;
    }
    Grain = Switch->getCond();
  }
  if (!Marked || !isa<ForStmt, CXXForRangeStmt>(Marked))
    return false;
  Mark *M = Marks.find(MarkKind::For, forLoc(Marked));
  if (!M)
    return false;
  M->Matched = true;
  if (auto *Range = dyn_cast<CXXForRangeStmt>(Marked))
    return rewriteRangeLoop(S, Range, Grain, *M, Walk);
  return rewriteParallelLoop(S, cast<ForStmt>(Marked), Grain, *M, Walk);
}

/// The `for` keyword of a loop, or an invalid location for another
/// statement.
SourceLocation SpawnRewriter::forLoc(const Stmt *S) {
  if (const auto *For = dyn_cast<ForStmt>(S))
    return For->getForLoc();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return Range->getForLoc();
  return SourceLocation();
}

/// Reports \p Problems and the reasons a checked loop cannot be rewritten
/// here. Returns true if it can be.
bool SpawnRewriter::mayRewriteLoop(const LoopProblems &Problems,
                                   const Mark &M, const BodyWalk &Walk) {
  for (const LoopProblem &P : Problems)
    error(fileLoc(P.Loc), P.Msg);
  if (!Problems.empty() || Walk.Dependent)
    return false;
  if (!SemaRef) {
    error(M.Written, "internal error: cilk_for needs the plugin's Sema");
    return false;
  }
  // The constant evaluator runs the body as written, and cannot call the
  // runtime: a constexpr function keeps its loop serial.
  if (declaredConstexpr(Ctx, Walk.Function)) {
    warning(M.Written, "cilk_for in a constexpr function runs serially");
    return false;
  }
  return true;
}

/// Builds the canonical form of a checked loop around one iteration: \p Head
/// (the declarations of the iteration's own variables, the loop variable's
/// first, whose initialiser the builder replaces) then \p Body. Returns
/// null if Sema rejected the loop's arithmetic; the loop is then unchanged,
/// and the caller says why.
CompoundStmt *SpawnRewriter::buildParallelLoop(
    const LoopForm &Form, Expr *Grain, llvm::ArrayRef<Stmt *> Head,
    Stmt *Body, BodyWalk &Walk) {
  auto *Fn = const_cast<FunctionDecl *>(Walk.Function);
  ParallelLoopBuilder Builder(*SemaRef, Fn, Form, pforCallees());
  bool Built;
  {
    SynthesizedScope Scope(*SemaRef, Fn);
    Built = Builder.build(Grain) && !Scope.failed();
  }
  if (!Built)
    return nullptr;
  CompoundStmt *Iteration = walkIteration(Head, Body, Walk);
  CompoundStmt *Result = Builder.assemble(Iteration);
  // The declarations of begin, limit and stride hold the user's
  // expressions, which may contain lambdas that spawn.
  for (unsigned I = 0, E = Builder.prologueSize(); I != E; ++I)
    walk(Result->body_begin()[I], Walk);
  return Result;
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
      Problems.push_back({Part->getBeginLoc(), HeaderSpawns});
  if (!mayRewriteLoop(Problems, M, Walk) || !Form)
    return false;
  Stmt *Head[] = {declaration(Form->Var)};
  CompoundStmt *Result =
      buildParallelLoop(*Form, Grain, Head, Loop->getBody(), Walk);
  if (!Result) {
    error(M.Written, buildFailure(Form->Kind));
    return false;
  }
  S = Result;
  return true;
}

/// `{ head...; do body while (0); }`, walked as a function body of its own
/// (it becomes one): returns the block with its implicit sync. A block
/// body is also a scope (ScopeSyncs.cpp), so that its locals outlive the
/// iteration's children, whether it ends or a `continue` leaves it.
CompoundStmt *SpawnRewriter::walkIteration(llvm::ArrayRef<Stmt *> Head,
                                           Stmt *Body, BodyWalk &Outer) {
  SourceLocation Begin = Body->getBeginLoc(), End = Body->getEndLoc();
  SmallVector<Stmt *, 3> Parts(Head.begin(), Head.end());
  Parts.push_back(
      new (Ctx) DoStmt(Body, falseCondition(Ctx, End), Begin, End, End));
  Stmt *Iteration =
      CompoundStmt::Create(Ctx, Parts, FPOptionsOverride(), Begin, End);
  BodyWalk Inner(Outer.Function, /*Dependent=*/false, Iteration);
  Inner.Shared = Outer.Shared;
  if (auto *Block = dyn_cast<CompoundStmt>(Body))
    Inner.IterationBody = Block->getLBracLoc();
  walk(Iteration, Inner);
  auto *Block = cast<CompoundStmt>(Iteration);
  finishBody(Block, Inner);
  return Block;
}

DeclStmt *SpawnRewriter::declaration(VarDecl *Var) {
  return new (Ctx)
      DeclStmt(DeclGroupRef(Var), Var->getBeginLoc(), Var->getEndLoc());
}

//===-- Loops over a range ----------------------------------------------===//

/// `cilk_for (init; decl : range) body` becomes
///
///   {
///     init;                                    // C++20, if written
///     auto &&__range = range;                  // Clang's own statement
///     <canonical loop over __begin, as for
///      `for (auto __begin = begin-expr; __begin != end-expr; ++__begin)`,
///      whose iteration is>
///       { auto __begin = __weft_begin + k; decl = *__begin;
///         do body while (0); }
///   }
///
/// so the range, begin and end are evaluated once, in C++'s order, and the
/// user's variable (a copy, a reference, a structured binding) is each
/// iteration's own, declared before the body as the range loop declares it.
bool SpawnRewriter::rewriteRangeLoop(Stmt *&S, CXXForRangeStmt *Loop,
                                     Expr *Grain, const Mark &M,
                                     BodyWalk &Walk) {
  LoopProblems Problems;
  std::optional<LoopForm> Form =
      analyzeRangeLoop(Ctx, Loop, Walk.Dependent, Problems);
  checkLoopBody(Loop->getBody(), nullptr, Problems);
  if (!Walk.Dependent)
    checkJumpsIntoLoop(Walk.Body, Loop, Problems);
  const Stmt *Header[] = {Loop->getInit(), Loop->getRangeInit()};
  for (const Stmt *Part : Header)
    if (headerSpawns(Part))
      Problems.push_back({Part->getBeginLoc(), HeaderSpawns});
  if (!mayRewriteLoop(Problems, M, Walk) || !Form || !Loop->getLoopVarStmt())
    return false;
  Stmt *Head[] = {declaration(Form->Var), Loop->getLoopVarStmt()};
  CompoundStmt *Canonical =
      buildParallelLoop(*Form, Grain, Head, Loop->getBody(), Walk);
  if (!Canonical) {
    error(fileLoc(Loop->getRangeInit()->getBeginLoc()),
          notRandomAccess(Form->Var->getType()));
    return false;
  }
  SmallVector<Stmt *, 3> Parts;
  if (Stmt *Init = Loop->getInit())
    Parts.push_back(Init);
  Parts.push_back(Loop->getRangeStmt());
  unsigned Evaluated = Parts.size();
  Parts.push_back(Canonical);
  auto *Result = CompoundStmt::Create(Ctx, Parts, FPOptionsOverride(),
                                      Loop->getBeginLoc(), Loop->getEndLoc());
  // The init-statement and the range may contain lambdas that spawn.
  for (unsigned I = 0; I != Evaluated; ++I)
    walk(Result->body_begin()[I], Walk);
  S = Result;
  return true;
}

std::string SpawnRewriter::notRandomAccess(QualType Iterator) const {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  return "a cilk_for over a range needs random-access iterators, and '" +
         Iterator.getCanonicalType().getAsString(Policy) +
         "' is not one: 'end - begin' must give an integer and 'begin + n' "
         "must be valid";
}

} // namespace weft
