//===- ParallelForForm.cpp - What a parallel loop may look like -----------===//
//
// ParallelForForm.h lists the rules and why they exist.
//
//===----------------------------------------------------------------------===//

#include "frontend/parallel_for/ParallelForForm.h"
#include "frontend/StripImplicit.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace weft {
namespace {

bool isVarRef(const Expr *E, const VarDecl *Var) {
  const auto *Ref = dyn_cast<DeclRefExpr>(stripImplicit(E));
  return Ref && Ref->getDecl() == Var;
}

/// Reading `Limit Op Var` as `Var Op' Limit`.
BinaryOperatorKind reversed(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT: return BO_GT;
  case BO_GT: return BO_LT;
  case BO_LE: return BO_GE;
  case BO_GE: return BO_LE;
  default: return Op;
  }
}

std::optional<BinaryOperatorKind> comparison(OverloadedOperatorKind Op) {
  switch (Op) {
  case OO_Less: return BO_LT;
  case OO_LessEqual: return BO_LE;
  case OO_Greater: return BO_GT;
  case OO_GreaterEqual: return BO_GE;
  case OO_ExclaimEqual: return BO_NE;
  default: return std::nullopt;
  }
}

bool isAllowedComparison(BinaryOperatorKind Op) {
  return Op == BO_LT || Op == BO_LE || Op == BO_GT || Op == BO_GE ||
         Op == BO_NE;
}

const char *const ConditionForm =
    "the condition of a cilk_for must compare the loop variable with a "
    "limit that does not depend on it, with <, <=, !=, > or >= ('i < n')";
const char *const StepForm =
    "the step of a cilk_for must be '++i', 'i++', '--i', 'i--', 'i += s', "
    "'i -= s', 'i = i + s', 'i = s + i' or 'i = i - s', with s independent "
    "of the loop variable";

/// The loop variable, declared and initialised in the header.
VarDecl *loopVariable(ForStmt *Loop, LoopProblems &Problems) {
  Stmt *Init = Loop->getInit();
  SourceLocation Loc = Init ? Init->getBeginLoc() : Loop->getForLoc();
  auto *DS = dyn_cast_or_null<DeclStmt>(Init);
  if (!DS) {
    Problems.push_back({Loc, "the loop variable of a cilk_for must be "
                             "declared in its initialisation "
                             "('cilk_for (int i = 0; ...)')"});
    return nullptr;
  }
  auto *Var = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                 : nullptr;
  if (!Var) {
    Problems.push_back({Loc, "a cilk_for must declare exactly one loop "
                             "variable"});
    return nullptr;
  }
  if (!Var->getInit()) {
    Problems.push_back({Var->getLocation(),
                        "the loop variable of a cilk_for must be "
                        "initialised"});
    return nullptr;
  }
  if (!Var->hasLocalStorage() || Var->getType()->isReferenceType()) {
    Problems.push_back({Var->getLocation(),
                        "the loop variable of a cilk_for must be a local "
                        "variable, not static or a reference"});
    return nullptr;
  }
  if (Loop->getConditionVariable()) {
    Problems.push_back({Loop->getConditionVariable()->getLocation(),
                        ConditionForm});
    return nullptr;
  }
  return Var;
}

std::optional<LoopVarKind> kindOf(const ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType();
  if (T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType() &&
      !T->isBitIntType())
    return LoopVarKind::Integer;
  if (T->isPointerType() && T->getPointeeType()->isObjectType())
    return LoopVarKind::Pointer;
  if (T->isRecordType() && Ctx.getLangOpts().CPlusPlus)
    return LoopVarKind::Iterator;
  return std::nullopt;
}

/// The condition as `Var Cmp Limit`.
bool readCondition(LoopForm &F, LoopProblems &Problems) {
  Expr *Cond = F.Loop->getCond();
  SourceLocation Loc = Cond ? Cond->getBeginLoc() : F.Loop->getForLoc();
  if (!Cond) {
    Problems.push_back({Loc, ConditionForm});
    return false;
  }
  F.HeaderCleanups |= isa<ExprWithCleanups>(Cond->IgnoreParens());
  const Expr *C = stripImplicit(Cond);
  std::optional<BinaryOperatorKind> Op;
  Expr *L = nullptr, *R = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(C)) {
    Op = B->getOpcode();
    L = B->getLHS();
    R = B->getRHS();
  } else if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(C);
             Call && Call->getNumArgs() == 2) {
    Op = comparison(Call->getOperator());
    L = const_cast<Expr *>(Call->getArg(0));
    R = const_cast<Expr *>(Call->getArg(1));
  } else if (const auto *Rewritten = dyn_cast<CXXRewrittenBinaryOperator>(C)) {
    auto Form = Rewritten->getDecomposedForm();
    Op = Form.Opcode;
    L = const_cast<Expr *>(Form.LHS);
    R = const_cast<Expr *>(Form.RHS);
  }
  if (!Op || !isAllowedComparison(*Op)) {
    Problems.push_back({Loc, ConditionForm});
    return false;
  }
  if (isVarRef(L, F.Var) && !refersTo(R, F.Var)) {
    F.Cmp = *Op;
    F.Limit = R;
  } else if (isVarRef(R, F.Var) && !refersTo(L, F.Var)) {
    F.Cmp = reversed(*Op);
    F.Limit = L;
  } else {
    Problems.push_back({Loc, ConditionForm});
    return false;
  }
  return true;
}

/// The operator and operands of a binary operator, built-in or overloaded
/// (a member operator's object is its left operand).
struct BinaryForm {
  BinaryOperatorKind Op;
  const Expr *LHS, *RHS;
};

std::optional<BinaryForm> binaryForm(const Expr *E) {
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return BinaryForm{B->getOpcode(), B->getLHS(), B->getRHS()};
  const auto *Call = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Call || Call->getNumArgs() != 2)
    return std::nullopt;
  BinaryForm Form{BO_Assign, Call->getArg(0), Call->getArg(1)};
  switch (Call->getOperator()) {
  case OO_Equal: Form.Op = BO_Assign; break;
  case OO_Plus: Form.Op = BO_Add; break;
  case OO_Minus: Form.Op = BO_Sub; break;
  default: return std::nullopt;
  }
  return Form;
}

/// The step that `i = Value` takes when Value is `i + s`, `s + i` or
/// `i - s`: the same as `i += s` or `i -= s`, with F.Stride set to s as
/// Sema converted it for the addition, as it does for `+=`. An iterator's
/// sum may reach its assignment operator through a temporary or a copy.
std::optional<LoopStep> assignedStep(const Expr *Value, LoopForm &F) {
  std::optional<BinaryForm> Sum =
      binaryForm(stripImplicit(Value->IgnoreUnlessSpelledInSource()));
  if (!Sum)
    return std::nullopt;
  bool VarOnLeft = isVarRef(Sum->LHS, F.Var);
  if (Sum->Op == BO_Add && (VarOnLeft || isVarRef(Sum->RHS, F.Var))) {
    F.Stride = const_cast<Expr *>(VarOnLeft ? Sum->RHS : Sum->LHS);
    return LoopStep::Add;
  }
  if (Sum->Op == BO_Sub && VarOnLeft) {
    F.Stride = const_cast<Expr *>(Sum->RHS);
    return LoopStep::Subtract;
  }
  return std::nullopt;
}

bool readStep(LoopForm &F, LoopProblems &Problems) {
  Expr *Inc = F.Loop->getInc();
  SourceLocation Loc = Inc ? Inc->getBeginLoc() : F.Loop->getForLoc();
  if (!Inc) {
    Problems.push_back({Loc, StepForm});
    return false;
  }
  F.HeaderCleanups |= isa<ExprWithCleanups>(Inc->IgnoreParens());
  const Expr *I = stripImplicit(Inc);
  const Expr *Target = nullptr;
  std::optional<LoopStep> Step;
  if (std::optional<BinaryForm> Assign = binaryForm(I);
      Assign && Assign->Op == BO_Assign) {
    Target = Assign->LHS;
    Step = assignedStep(Assign->RHS, F);
  } else if (const auto *U = dyn_cast<UnaryOperator>(I)) {
    Target = U->getSubExpr();
    if (U->isIncrementOp())
      Step = LoopStep::Increment;
    else if (U->isDecrementOp())
      Step = LoopStep::Decrement;
  } else if (const auto *A = dyn_cast<CompoundAssignOperator>(I)) {
    Target = A->getLHS();
    F.Stride = A->getRHS();
    if (A->getOpcode() == BO_AddAssign)
      Step = LoopStep::Add;
    else if (A->getOpcode() == BO_SubAssign)
      Step = LoopStep::Subtract;
  } else if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(I);
             Call && Call->getNumArgs() >= 1) {
    Target = Call->getArg(0);
    OverloadedOperatorKind Op = Call->getOperator();
    if (Op == OO_PlusPlus)
      Step = LoopStep::Increment;
    else if (Op == OO_MinusMinus)
      Step = LoopStep::Decrement;
    else if ((Op == OO_PlusEqual || Op == OO_MinusEqual) &&
             Call->getNumArgs() == 2) {
      Step = Op == OO_PlusEqual ? LoopStep::Add : LoopStep::Subtract;
      F.Stride = const_cast<Expr *>(Call->getArg(1));
    }
  }
  if (!Step || !Target || !isVarRef(Target, F.Var) ||
      (F.Stride && refersTo(F.Stride, F.Var))) {
    Problems.push_back({Loc, StepForm});
    return false;
  }
  if (F.Stride && !F.Stride->getType()->isIntegralOrUnscopedEnumerationType()) {
    Problems.push_back({F.Stride->getBeginLoc(),
                        "the stride of a cilk_for must be an integer"});
    return false;
  }
  F.Step = *Step;
  return true;
}

/// Rejects a step that can never reach the limit: `--i` with `i < n`, a
/// constant stride of zero or of the wrong sign.
bool checkDirection(const ASTContext &Ctx, const LoopForm &F,
                    LoopProblems &Problems) {
  bool Up = F.Cmp == BO_LT || F.Cmp == BO_LE;
  bool Down = F.Cmp == BO_GT || F.Cmp == BO_GE;
  std::optional<int> Sign;
  if (F.Step == LoopStep::Increment)
    Sign = 1;
  else if (F.Step == LoopStep::Decrement)
    Sign = -1;
  Expr::EvalResult Value;
  if (F.Stride && !F.Stride->isValueDependent() &&
      F.Stride->EvaluateAsInt(Value, Ctx)) {
    const llvm::APSInt &V = Value.Val.getInt();
    int S = V.isZero() ? 0 : (V.isSigned() && V.isNegative() ? -1 : 1);
    Sign = F.Step == LoopStep::Add ? S : -S;
  }
  SourceLocation Loc = F.Loop->getInc()->getBeginLoc();
  if (Sign && *Sign == 0) {
    Problems.push_back({Loc, "the step of a cilk_for cannot be zero"});
    return false;
  }
  if (Sign && ((Up && *Sign < 0) || (Down && *Sign > 0))) {
    Problems.push_back({Loc, "the step of this cilk_for moves the loop "
                             "variable away from its limit"});
    return false;
  }
  return true;
}

void collectLabels(const Stmt *S,
                   llvm::SmallPtrSetImpl<const LabelDecl *> &Out) {
  if (!S)
    return;
  if (const auto *Label = dyn_cast<LabelStmt>(S))
    Out.insert(Label->getDecl());
  for (const Stmt *Child : S->children())
    collectLabels(Child, Out);
}

/// Walks a loop body for what could leave it or change the loop variable.
class BodyChecker {
public:
  BodyChecker(const VarDecl *Var, LoopProblems &Problems)
      : Var(Var), Problems(Problems) {}

  void run(const Stmt *Body) {
    collectLabels(Body, Labels);
    visit(Body);
  }

private:
  void report(SourceLocation Loc, std::string Msg) {
    Problems.push_back({Loc, std::move(Msg)});
  }

  void checkModification(const Stmt *S);
  void visit(const Stmt *S);

  const VarDecl *Var;
  LoopProblems &Problems;
  llvm::SmallPtrSet<const LabelDecl *, 4> Labels;
  unsigned Loops = 0;    // loops nested in the body (a break stays inside)
  unsigned Switches = 0; // switches nested in the body
};

void BodyChecker::checkModification(const Stmt *S) {
  if (!Var)
    return;
  const Expr *Target = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    Target = B->getLHS();
  else if (const auto *U = dyn_cast<UnaryOperator>(S);
           U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  else if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(S);
           Call && Call->getNumArgs() >= 1 &&
           (Call->isAssignmentOp() || Call->getOperator() == OO_PlusPlus ||
            Call->getOperator() == OO_MinusMinus))
    Target = Call->getArg(0);
  if (Target && isVarRef(Target, Var))
    report(S->getBeginLoc(), "the loop variable '" + Var->getName().str() +
                                 "' of a cilk_for cannot be modified in "
                                 "its body");
}

void BodyChecker::visit(const Stmt *S) {
  if (!S)
    return;
  checkModification(S);
  if (isa<BreakStmt>(S) && !Loops && !Switches)
    report(S->getBeginLoc(), "'break' cannot leave the body of a cilk_for");
  else if (isa<ReturnStmt>(S))
    report(S->getBeginLoc(), "'return' cannot leave the body of a cilk_for");
  else if (isa<CoreturnStmt>(S))
    report(S->getBeginLoc(),
           "'co_return' cannot leave the body of a cilk_for");
  else if (const auto *Goto = dyn_cast<GotoStmt>(S);
           Goto && !Labels.count(Goto->getLabel()))
    report(S->getBeginLoc(), "'goto' cannot leave the body of a cilk_for");
  else if (isa<IndirectGotoStmt>(S))
    report(S->getBeginLoc(),
           "a computed goto cannot appear in the body of a cilk_for");
  else if (isa<SwitchCase>(S) && !Switches)
    report(S->getBeginLoc(), "a case label of a switch outside a cilk_for "
                             "cannot be inside its body");
  else if (isa<CoawaitExpr, CoyieldExpr>(S))
    report(S->getBeginLoc(),
           "the body of a cilk_for cannot suspend a coroutine");
  if (isa<BlockExpr>(S))
    return; // a function of its own
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    for (const Expr *Init : Lambda->capture_inits())
      visit(Init); // its body is a function of its own
    return;
  }
  bool IsLoop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool IsSwitch = isa<SwitchStmt>(S);
  Loops += IsLoop;
  Switches += IsSwitch;
  for (const Stmt *Child : S->children())
    visit(Child);
  Loops -= IsLoop;
  Switches -= IsSwitch;
}

void findJumpsInto(const Stmt *S, const Stmt *Loop,
                   const llvm::SmallPtrSetImpl<const LabelDecl *> &Labels,
                   LoopProblems &Problems) {
  if (!S || S == Loop || isa<LambdaExpr, BlockExpr>(S))
    return;
  if (const auto *Goto = dyn_cast<GotoStmt>(S);
      Goto && Labels.count(Goto->getLabel()))
    Problems.push_back({Goto->getGotoLoc(),
                        "a 'goto' cannot jump into the body of a cilk_for"});
  for (const Stmt *Child : S->children())
    findJumpsInto(Child, Loop, Labels, Problems);
}

} // namespace

bool refersTo(const Stmt *S, const VarDecl *Var) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == Var)
    return true;
  for (const Stmt *Child : S->children())
    if (refersTo(Child, Var))
      return true;
  return false;
}

/// Whether Clang already rejected part of the header (its errors are
/// enough).
bool headerHasErrors(const ForStmt *Loop) {
  auto Broken = [](const Expr *E) { return E && E->containsErrors(); };
  const auto *DS = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  const auto *Var = DS && DS->isSingleDecl()
                        ? dyn_cast<VarDecl>(DS->getSingleDecl())
                        : nullptr;
  return Broken(Loop->getCond()) || Broken(Loop->getInc()) ||
         (Var && (Var->isInvalidDecl() || Broken(Var->getInit())));
}

std::optional<LoopForm> analyzeLoopHeader(ASTContext &Ctx, ForStmt *Loop,
                                          bool Dependent,
                                          LoopProblems &Problems) {
  if (headerHasErrors(Loop))
    return std::nullopt;
  LoopForm F;
  F.Loop = Loop;
  F.ForLoc = Loop->getForLoc();
  F.Var = loopVariable(Loop, Problems);
  if (!F.Var || Dependent)
    return F.Var ? std::optional<LoopForm>(F) : std::nullopt;
  std::optional<LoopVarKind> Kind = kindOf(Ctx, F.Var->getType());
  if (!Kind) {
    Problems.push_back({F.Var->getLocation(),
                        "the loop variable of a cilk_for must have integer, "
                        "pointer or random-access iterator type"});
    return std::nullopt;
  }
  F.Kind = *Kind;
  if (!readCondition(F, Problems) || !readStep(F, Problems) ||
      !checkDirection(Ctx, F, Problems))
    return std::nullopt;
  return F;
}

/// The single variable a range statement's begin or end statement declares.
VarDecl *rangeVariable(Stmt *S) {
  auto *DS = dyn_cast_or_null<DeclStmt>(S);
  return DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                  : nullptr;
}

std::optional<LoopForm> analyzeRangeLoop(ASTContext &Ctx,
                                         CXXForRangeStmt *Loop, bool Dependent,
                                         LoopProblems &Problems) {
  // A dependent range has no begin and end yet; an invalid one has Clang's
  // own errors.
  VarDecl *Begin = rangeVariable(Loop->getBeginStmt());
  VarDecl *End = rangeVariable(Loop->getEndStmt());
  if (Dependent || !Begin || !End || !Begin->getInit() || !End->getInit() ||
      Begin->isInvalidDecl() || End->isInvalidDecl() ||
      Begin->getInit()->containsErrors() || End->getInit()->containsErrors())
    return std::nullopt;
  LoopForm F;
  F.ForLoc = Loop->getForLoc();
  F.Var = Begin;
  F.Cmp = BO_NE;
  F.Limit = End->getInit();
  F.Step = LoopStep::Increment;
  F.HeaderCleanups = isa<ExprWithCleanups>(End->getInit());
  std::optional<LoopVarKind> Kind = kindOf(Ctx, Begin->getType());
  if (!Kind || *Kind == LoopVarKind::Integer) {
    Problems.push_back({Loop->getRangeInit()->getBeginLoc(),
                        "a cilk_for over a range needs random-access "
                        "iterators, and '" +
                            Begin->getType().getCanonicalType().getAsString(
                                Ctx.getPrintingPolicy()) +
                            "' is not one"});
    return std::nullopt;
  }
  F.Kind = *Kind;
  return F;
}

void checkLoopBody(const Stmt *Body, const VarDecl *Var,
                   LoopProblems &Problems) {
  BodyChecker(Var, Problems).run(Body);
}

void checkJumpsIntoLoop(const Stmt *FunctionBody, const Stmt *Loop,
                        LoopProblems &Problems) {
  llvm::SmallPtrSet<const LabelDecl *, 4> Labels;
  collectLabels(Loop, Labels);
  if (!Labels.empty())
    findJumpsInto(FunctionBody, Loop, Labels, Problems);
}

} // namespace weft
