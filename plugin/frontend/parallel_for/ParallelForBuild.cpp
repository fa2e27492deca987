//===- ParallelForBuild.cpp - A parallel loop's canonical form ------------===//
//
// ParallelForBuild.h shows the shape. The trip count n is the number of
// iterations the serial loop runs with the limit and the stride evaluated
// once; iteration k (0 <= k < n) gets i = begin + k * stride.
//
// Integer loop variables. The condition compares in some type C (i is
// converted to it); the serial loop runs while that comparison holds. In
// unsigned arithmetic of C's width, d = limit - begin (or begin - limit
// for a loop that counts down) is the exact distance whenever the loop runs
// at all, however large, and the stride is reduced to the same width:
//
//   <  and >   n = begin OP limit ? (d - 1) / step + 1 : 0
//   <= and >=  n = begin OP limit ? d / step + 1 : 0
//   !=         n = begin != limit ? d / step : 0  (d and step taken in the
//              direction the stride's sign gives, in i's own width when i is
//              unsigned: `unsigned i = 10; i != 2; ++i` wraps, as serially)
//
// and i = (T)(begin + k * stride) in the same unsigned arithmetic, which
// the conversion back to T makes exact. Pointers and iterators use their
// difference type the same way: d = limit - begin, i = begin + k * stride.
// A zero stride gives n = 0 (the serial loop would never end).
//
//===----------------------------------------------------------------------===//

#include "frontend/parallel_for/ParallelForBuild.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace weft {

ParallelLoopBuilder::ParallelLoopBuilder(Sema &S, FunctionDecl *Fn,
                                         const LoopForm &F,
                                         const PforCallees &Callees)
    : S(S), Ctx(S.getASTContext()), Fn(Fn), F(F), Callees(Callees),
      Loc(F.ForLoc) {}

//===-- Sema helpers ------------------------------------------------------===//

Expr *ParallelLoopBuilder::ref(VarDecl *V) {
  if (!V)
    return nullptr;
  return S.BuildDeclRefExpr(V, V->getType().getNonReferenceType(), VK_LValue,
                            Loc);
}

/// \p E converted to the scalar type \p T (an implicit cast: no warning).
/// The cast is always a node of its own: Sema's ImpCastExprToType would
/// fold `(unsigned long long)(unsigned char)x` into one cast, dropping the
/// truncation that the wrapping arithmetic needs.
Expr *ParallelLoopBuilder::to(Expr *E, QualType T) {
  if (!E)
    return nullptr;
  ExprResult R = S.DefaultLvalueConversion(E);
  if (!R.isUsable() || !R.get()->getType()->isScalarType())
    return nullptr;
  if (Ctx.hasSameUnqualifiedType(R.get()->getType(), T))
    return R.get();
  CastKind Kind = S.PrepareScalarCast(R, T);
  if (!R.isUsable())
    return nullptr;
  return ImplicitCastExpr::Create(Ctx, T, Kind, R.get(), nullptr, VK_PRValue,
                                  FPOptionsOverride());
}

Expr *ParallelLoopBuilder::lit(QualType T, uint64_t V) {
  return IntegerLiteral::Create(Ctx, llvm::APInt(Ctx.getIntWidth(T), V), T,
                                Loc);
}

Expr *ParallelLoopBuilder::bin(BinaryOperatorKind Op, Expr *L, Expr *R) {
  if (!L || !R)
    return nullptr;
  ExprResult E = S.BuildBinOp(/*Scope=*/nullptr, Loc, Op, L, R);
  return E.isUsable() ? E.get() : nullptr;
}

Expr *ParallelLoopBuilder::negate(Expr *E) {
  if (!E)
    return nullptr;
  ExprResult R = S.BuildUnaryOp(/*Scope=*/nullptr, Loc, UO_Minus, E);
  return R.isUsable() ? R.get() : nullptr;
}

Expr *ParallelLoopBuilder::choose(Expr *Cond, Expr *Then, Expr *Else) {
  if (!Cond || !Then || !Else)
    return nullptr;
  ExprResult R = S.ActOnConditionalOp(Loc, Loc, Cond, Then, Else);
  return R.isUsable() ? R.get() : nullptr;
}

Expr *ParallelLoopBuilder::call(FunctionDecl *Callee, ArrayRef<Expr *> Args) {
  if (llvm::is_contained(Args, nullptr))
    return nullptr;
  // Functions are lvalues in C++ and rvalues in C (as Sema makes them).
  ExprValueKind VK = Ctx.getLangOpts().CPlusPlus ? VK_LValue : VK_PRValue;
  Expr *Ref = S.BuildDeclRefExpr(Callee, Callee->getType(), VK, Loc);
  SmallVector<Expr *, 3> Owned(Args.begin(), Args.end());
  ExprResult R = S.BuildCallExpr(/*Scope=*/nullptr, Ref, Loc, Owned, Loc);
  return R.isUsable() ? R.get() : nullptr;
}

/// The loop's identity for the pass: its `for` keyword's raw location.
Expr *ParallelLoopBuilder::id() {
  return lit(Ctx.UnsignedIntTy, Loc.getRawEncoding());
}

/// A new local `T Name = Init;` of the function. \p Cleanups: Init was
/// taken out of a full-expression with temporaries, which now end with
/// this declaration.
VarDecl *ParallelLoopBuilder::declare(StringRef Name, QualType T, Expr *Init,
                                      bool Cleanups) {
  if (!Init || T.isNull())
    return nullptr;
  auto *VD = VarDecl::Create(Ctx, Fn, Loc, Loc, &Ctx.Idents.get(Name), T,
                             Ctx.getTrivialTypeSourceInfo(T, Loc), SC_None);
  VD->setImplicit();
  if (Cleanups)
    S.Cleanup.setExprNeedsCleanups(/*SideEffects=*/true);
  S.AddInitializerToDecl(VD, Init, /*DirectInit=*/false);
  if (VD->isInvalidDecl() || !VD->getInit())
    return nullptr;
  return VD;
}

bool ParallelLoopBuilder::movesDown() const {
  return F.Cmp == BO_GT || F.Cmp == BO_GE;
}

//===-- Integer loop variables --------------------------------------------===//

/// \p E reduced to the width the loop wraps at, back in Arith.
Expr *ParallelLoopBuilder::wrap(Expr *E) {
  if (Ctx.hasSameType(Wrap, Arith))
    return E;
  return to(to(E, Wrap), Arith);
}

Expr *ParallelLoopBuilder::arith(VarDecl *V) { return to(ref(V), Arith); }

Expr *ParallelLoopBuilder::integerStride() {
  switch (F.Step) {
  case LoopStep::Increment:
    return lit(Arith, 1);
  case LoopStep::Decrement:
    return wrap(bin(BO_Sub, lit(Arith, 0), lit(Arith, 1)));
  case LoopStep::Add:
    return wrap(arith(Stride));
  case LoopStep::Subtract:
    return wrap(bin(BO_Sub, lit(Arith, 0), arith(Stride)));
  }
  return nullptr;
}

/// Iterations for a loop entered at all, with a non-zero step.
Expr *ParallelLoopBuilder::integerCount() {
  auto Up = [&] {
    return wrap(bin(BO_Sub, arith(Limit), arith(Begin)));
  };
  auto Down = [&] {
    return wrap(bin(BO_Sub, arith(Begin), arith(Limit)));
  };
  auto DownStep = [&] {
    return wrap(bin(BO_Sub, lit(Arith, 0), integerStride()));
  };
  if (F.Cmp != BO_NE)
    return movesDown() ? stepCount(Down(), DownStep(), Arith)
                       : stepCount(Up(), integerStride(), Arith);
  QualType ULL = Ctx.UnsignedLongLongTy;
  Expr *UpCount = to(bin(BO_Div, Up(), integerStride()), ULL);
  Expr *DownCount = to(bin(BO_Div, Down(), DownStep()), ULL);
  // Which way `i != limit` goes is the sign of the stride; an unsigned s
  // counts as positive.
  bool SignedStride =
      Stride && Stride->getType()->isSignedIntegerOrEnumerationType();
  switch (F.Step) {
  case LoopStep::Increment:
    return UpCount;
  case LoopStep::Decrement:
    return DownCount;
  case LoopStep::Add:
    if (!SignedStride)
      return UpCount;
    return choose(bin(BO_LT, ref(Stride), lit(Stride->getType(), 0)),
                  DownCount, UpCount);
  case LoopStep::Subtract:
    if (!SignedStride)
      return DownCount;
    return choose(bin(BO_GT, ref(Stride), lit(Stride->getType(), 0)),
                  DownCount, UpCount);
  }
  return nullptr;
}

bool ParallelLoopBuilder::buildIntegerLoop() {
  // Limit has the comparison's type C. A loop `i != limit` over an
  // unsigned i wraps at i's width, whatever C is.
  QualType VarT = F.Var->getType();
  unsigned Width = Ctx.getIntWidth(Limit->getType());
  if (F.Cmp == BO_NE && VarT->isUnsignedIntegerType())
    Width = Ctx.getIntWidth(VarT);
  Arith = Width > 64 ? Ctx.UnsignedInt128Ty : Ctx.UnsignedLongLongTy;
  Wrap = Ctx.getIntTypeForBitwidth(Width, /*Signed=*/false);
  if (Wrap.isNull())
    return false;
  Expr *NonZero = bin(BO_NE, integerStride(), lit(Arith, 0));
  Count = declare("__weft_count", Ctx.UnsignedLongLongTy,
                  countWhenEntered(integerCount(), NonZero));
  Expr *Offset = bin(BO_Mul, to(ref(Index), Arith), integerStride());
  IterationInit = to(bin(BO_Add, arith(Begin), Offset), VarT);
  return Count && IterationInit;
}

//===-- Pointers and iterators --------------------------------------------===//

Expr *ParallelLoopBuilder::differenceStride() {
  switch (F.Step) {
  case LoopStep::Increment:
    return lit(Diff, 1);
  case LoopStep::Decrement:
    return negate(lit(Diff, 1));
  case LoopStep::Add:
    return to(ref(Stride), Diff);
  case LoopStep::Subtract:
    return negate(to(ref(Stride), Diff));
  }
  return nullptr;
}

Expr *ParallelLoopBuilder::differenceCount() {
  if (F.Cmp == BO_NE)
    return to(bin(BO_Div, bin(BO_Sub, ref(Limit), ref(Begin)),
                  differenceStride()),
              Ctx.UnsignedLongLongTy);
  if (movesDown())
    return stepCount(bin(BO_Sub, ref(Begin), ref(Limit)),
                     negate(differenceStride()), Diff);
  return stepCount(bin(BO_Sub, ref(Limit), ref(Begin)), differenceStride(),
                   Diff);
}

bool ParallelLoopBuilder::buildDifferenceLoop() {
  // The difference type: ptrdiff_t, or the iterator's difference_type.
  Expr *Difference = bin(BO_Sub, ref(Limit), ref(Begin));
  if (!Difference || !Difference->getType()->isIntegerType())
    return false;
  Diff = Difference->getType().getUnqualifiedType();
  Expr *NonZero = bin(BO_NE, differenceStride(), lit(Diff, 0));
  Count = declare("__weft_count", Ctx.UnsignedLongLongTy,
                  countWhenEntered(differenceCount(), NonZero));
  Expr *Offset = bin(BO_Mul, to(ref(Index), Diff), differenceStride());
  IterationInit = bin(BO_Add, ref(Begin), Offset);
  return Count && IterationInit;
}

//===-- Both --------------------------------------------------------------===//

/// For `<`/`>`: (d - 1) / step + 1; for `<=`/`>=`: d / step + 1; in \p T,
/// then unsigned long long. Only used once the loop is known to run.
Expr *ParallelLoopBuilder::stepCount(Expr *Distance, Expr *Step, QualType T) {
  bool Strict = F.Cmp == BO_LT || F.Cmp == BO_GT;
  Expr *Dividend = Strict ? bin(BO_Sub, Distance, lit(T, 1)) : Distance;
  Expr *Quotient = to(bin(BO_Div, Dividend, Step), Ctx.UnsignedLongLongTy);
  return bin(BO_Add, Quotient, lit(Ctx.UnsignedLongLongTy, 1));
}

/// \p Count if the serial loop would run its first iteration, else 0.
Expr *ParallelLoopBuilder::countWhenEntered(Expr *Count, Expr *NonZeroStep) {
  Expr *Entered = bin(F.Cmp, ref(Begin), ref(Limit));
  return choose(bin(BO_LAnd, Entered, NonZeroStep), Count,
                lit(Ctx.UnsignedLongLongTy, 0));
}

/// Appends `T Name = ...;` for \p V to the statements before the loop.
void ParallelLoopBuilder::addToPrologue(VarDecl *V) {
  Prologue.push_back(new (Ctx) DeclStmt(DeclGroupRef(V), Loc, Loc));
}

/// __weft_begin, __weft_limit and __weft_stride: the header's values,
/// evaluated once, in the order the serial loop first evaluates them.
bool ParallelLoopBuilder::declareHeaderValues() {
  // The loop variable's initialiser moves to __weft_begin; the variable
  // itself becomes each iteration's own.
  QualType VarT = F.Var->getType();
  Begin = VarDecl::Create(Ctx, Fn, Loc, Loc, &Ctx.Idents.get("__weft_begin"),
                          VarT, Ctx.getTrivialTypeSourceInfo(VarT, Loc),
                          SC_None);
  Begin->setImplicit();
  Begin->setInit(F.Var->getInit());
  Begin->setInitStyle(F.Var->getInitStyle());
  addToPrologue(Begin);

  // An iterator's limit and stride are copied from the values the user's
  // operators received; a built-in comparison's limit keeps its conversion
  // to the comparison's type, which the integer formulas rely on.
  bool Iterator = F.Kind == LoopVarKind::Iterator;
  Expr *LimitInit = Iterator ? F.Limit->IgnoreImplicit() : F.Limit;
  QualType LimitT =
      LimitInit->getType().getNonReferenceType().getUnqualifiedType();
  if (LimitT->isArrayType() || LimitT->isFunctionType())
    LimitT = Ctx.getDecayedType(LimitT);
  Limit = declare("__weft_limit", LimitT, LimitInit, F.HeaderCleanups);
  if (!Limit)
    return false;
  addToPrologue(Limit);
  if (!F.Stride)
    return true;
  Expr *StrideInit = Iterator ? F.Stride->IgnoreImplicit() : F.Stride;
  QualType StrideT =
      StrideInit->getType().getNonReferenceType().getUnqualifiedType();
  Stride = declare("__weft_stride", StrideT, StrideInit, F.HeaderCleanups);
  if (!Stride || !StrideT->isIntegerType())
    return false;
  addToPrologue(Stride);
  return true;
}

/// C++ with exceptions: the slot an iteration's exception waits in, and
/// the calls that fill it and rethrow from it.
bool ParallelLoopBuilder::declareExceptionSlot() {
  Exception = declare("__weft_exception", Ctx.VoidPtrTy, lit(Ctx.IntTy, 0));
  if (!Exception)
    return false;
  addToPrologue(Exception);
  ExprResult Slot = S.BuildUnaryOp(nullptr, Loc, UO_AddrOf, ref(Exception));
  CatchCall =
      call(Callees.Catch, {Slot.isUsable() ? Slot.get() : nullptr, id()});
  RethrowCall = call(Callees.Rethrow, {ref(Exception)});
  return CatchCall && RethrowCall;
}

/// The markers and the loop's own header over __weft_index.
bool ParallelLoopBuilder::buildMarkers(Expr *Grain) {
  Expr *GrainArg = Grain ? Grain : lit(Ctx.LongLongTy, 0);
  Expr *Marker = call(Callees.Marker, {ref(Count), GrainArg, id()});
  LoopCond = bin(BO_LT, ref(Index), call(Callees.Hi, {id()}));
  ExprResult Inc = S.BuildUnaryOp(nullptr, Loc, UO_PreInc, ref(Index));
  LoopInc = Inc.isUsable() ? Inc.get() : nullptr;
  EndCall = call(Callees.End, {id()});
  if (!Marker || !LoopCond || !LoopInc || !EndCall)
    return false;
  Prologue.push_back(Marker);
  return true;
}

bool ParallelLoopBuilder::build(Expr *Grain) {
  if (!declareHeaderValues())
    return false;
  Index = declare("__weft_index", Ctx.UnsignedLongLongTy,
                  call(Callees.Lo, {id()}));
  if (!Index)
    return false;
  bool Built = F.Kind == LoopVarKind::Integer ? buildIntegerLoop()
                                              : buildDifferenceLoop();
  if (!Built)
    return false;
  addToPrologue(Count);
  if (Ctx.getLangOpts().CXXExceptions && !declareExceptionSlot())
    return false;
  if (!buildMarkers(Grain))
    return false;
  // Last, so that a failure above leaves the loop as it was.
  F.Var->setInit(nullptr);
  F.Var->setInitStyle(VarDecl::CInit);
  S.AddInitializerToDecl(F.Var, IterationInit, /*DirectInit=*/false);
  return !F.Var->isInvalidDecl() && F.Var->getInit();
}

CompoundStmt *ParallelLoopBuilder::assemble(CompoundStmt *Iteration) {
  Stmt *Body = Iteration;
  if (Exception) {
    Stmt *Handler[] = {CatchCall, new (Ctx) BreakStmt(Loc)};
    auto *Catch = new (Ctx) CXXCatchStmt(
        Loc, nullptr,
        CompoundStmt::Create(Ctx, Handler, FPOptionsOverride(), Loc, Loc));
    Stmt *Handlers[] = {Catch};
    Body = CXXTryStmt::Create(Ctx, Loc, Iteration, Handlers);
  }
  auto *IndexDecl = new (Ctx) DeclStmt(DeclGroupRef(Index), Loc, Loc);
  auto *Loop = new (Ctx)
      ForStmt(Ctx, IndexDecl, LoopCond, nullptr, LoopInc, Body, Loc, Loc, Loc);
  SmallVector<Stmt *, 12> All(Prologue.begin(), Prologue.end());
  All.push_back(Loop);
  All.push_back(EndCall);
  if (RethrowCall)
    All.push_back(RethrowCall);
  return CompoundStmt::Create(Ctx, All, FPOptionsOverride(), Loc, Loc);
}

} // namespace weft
