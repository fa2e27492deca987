//===- PatternSharing.cpp - Rewrite instantiations, never their patterns --===//
//
// Clang instantiates a template by transforming its pattern's body, and a
// subtree that instantiation leaves unchanged is not copied: the
// instantiation points to the pattern's own nodes. A call through `this`
// (`cilk_spawn step()` in a member function template, or in a generic
// lambda inside a member function) is such a subtree; so is a block with
// nothing dependent in it, up to a function's whole body.
//
// Changing a shared node in place would change the pattern, and so every
// instantiation made from it later: Clang would re-check the spawn markers
// there as if the user had written them (and reject a `const` object passed
// as `void *`), and the later instantiation's body might be the very block
// already rewritten. So the walk of an instantiation copies a shared node
// before it changes anything in it:
//
//   - statements whose slots the walk writes (blocks, branches, loops, try
//     and catch, returns, statement expressions) when the walk enters them;
//   - the expressions from a statement's outermost expression down to a
//     spawned call, and the callee expression the spawn marks, when the
//     spawn is rewritten.
//
// The copies are shallow: their children stay shared until they are copied
// in turn. Only instantiations pay for this; a function that is not one has
// no pattern to share with.
//
//===----------------------------------------------------------------------===//

#include "frontend/SpawnRewriter.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TemplateBase.h"

using namespace clang;

namespace weft {

void SpawnRewriter::collectPatternNodes(const FunctionDecl *FD,
                                        llvm::DenseSet<const Stmt *> &Nodes) {
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  const Stmt *Body = Pattern && Pattern != FD ? Pattern->getBody() : nullptr;
  llvm::SmallVector<const Stmt *, 64> Work;
  if (Body)
    Work.push_back(Body);
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!Nodes.insert(S).second)
      continue;
    for (const Stmt *Child : S->children())
      if (Child)
        Work.push_back(Child);
  }
}

/// A shallow copy of \p S (its children shared), or null for a kind the
/// walk never needs to change (or that an instantiation never shares).
Stmt *SpawnRewriter::copyNode(Stmt *S) {
  switch (S->getStmtClass()) {
  case Stmt::CompoundStmtClass: {
    auto *C = cast<CompoundStmt>(S);
    return CompoundStmt::Create(
        Ctx, llvm::ArrayRef(C->body_begin(), C->size()),
        C->hasStoredFPFeatures() ? C->getStoredFPFeatures()
                                 : FPOptionsOverride(),
        C->getLBracLoc(), C->getRBracLoc());
  }
  case Stmt::IfStmtClass: {
    auto *I = cast<IfStmt>(S);
    return IfStmt::Create(Ctx, I->getIfLoc(), I->getStatementKind(),
                          I->getInit(), I->getConditionVariable(),
                          I->getCond(), I->getLParenLoc(), I->getRParenLoc(),
                          I->getThen(), I->getElseLoc(), I->getElse());
  }
  case Stmt::WhileStmtClass: {
    auto *W = cast<WhileStmt>(S);
    return WhileStmt::Create(Ctx, W->getConditionVariable(), W->getCond(),
                             W->getBody(), W->getWhileLoc(), W->getLParenLoc(),
                             W->getRParenLoc());
  }
  case Stmt::DoStmtClass: {
    auto *D = cast<DoStmt>(S);
    return new (Ctx) DoStmt(D->getBody(), D->getCond(), D->getDoLoc(),
                            D->getWhileLoc(), D->getRParenLoc());
  }
  case Stmt::ForStmtClass: {
    auto *F = cast<ForStmt>(S);
    return new (Ctx) ForStmt(Ctx, F->getInit(), F->getCond(),
                             F->getConditionVariable(), F->getInc(),
                             F->getBody(), F->getForLoc(), F->getLParenLoc(),
                             F->getRParenLoc());
  }
  case Stmt::AttributedStmtClass: {
    auto *A = cast<AttributedStmt>(S);
    return AttributedStmt::Create(Ctx, A->getAttrLoc(), A->getAttrs(),
                                  A->getSubStmt());
  }
  case Stmt::CXXTryStmtClass: {
    auto *T = cast<CXXTryStmt>(S);
    llvm::SmallVector<Stmt *, 2> Handlers;
    for (unsigned I = 0, E = T->getNumHandlers(); I != E; ++I)
      Handlers.push_back(T->getHandler(I));
    return CXXTryStmt::Create(Ctx, T->getTryLoc(), T->getTryBlock(), Handlers);
  }
  case Stmt::CXXCatchStmtClass: {
    auto *C = cast<CXXCatchStmt>(S);
    return new (Ctx) CXXCatchStmt(C->getCatchLoc(), C->getExceptionDecl(),
                                  C->getHandlerBlock());
  }
  case Stmt::ReturnStmtClass: {
    auto *R = cast<ReturnStmt>(S);
    return ReturnStmt::Create(Ctx, R->getReturnLoc(), R->getRetValue(),
                              R->getNRVOCandidate());
  }
  case Stmt::StmtExprClass: {
    auto *E = cast<StmtExpr>(S);
    return new (Ctx) StmtExpr(E->getSubStmt(), E->getType(), E->getLParenLoc(),
                              E->getRParenLoc(), E->getTemplateDepth());
  }
  case Stmt::ParenExprClass: {
    auto *P = cast<ParenExpr>(S);
    return new (Ctx) ParenExpr(P->getLParen(), P->getRParen(), P->getSubExpr());
  }
  case Stmt::BinaryOperatorClass: {
    auto *B = cast<BinaryOperator>(S);
    return BinaryOperator::Create(Ctx, B->getLHS(), B->getRHS(),
                                  B->getOpcode(), B->getType(),
                                  B->getValueKind(), B->getObjectKind(),
                                  B->getOperatorLoc(),
                                  B->getStoredFPFeaturesOrDefault());
  }
  case Stmt::UnaryOperatorClass: {
    auto *U = cast<UnaryOperator>(S);
    return UnaryOperator::Create(Ctx, U->getSubExpr(), U->getOpcode(),
                                 U->getType(), U->getValueKind(),
                                 U->getObjectKind(), U->getOperatorLoc(),
                                 U->canOverflow(),
                                 U->getStoredFPFeaturesOrDefault());
  }
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass: {
    auto *C = cast<CallExpr>(S);
    llvm::ArrayRef<Expr *> Args(C->getArgs(), C->getNumArgs());
    FPOptionsOverride FPO = C->getStoredFPFeaturesOrDefault();
    if (auto *Op = dyn_cast<CXXOperatorCallExpr>(C))
      return CXXOperatorCallExpr::Create(
          Ctx, Op->getOperator(), Op->getCallee(), Args, Op->getType(),
          Op->getValueKind(), Op->getOperatorLoc(), FPO, Op->getADLCallKind());
    if (isa<CXXMemberCallExpr>(C))
      return CXXMemberCallExpr::Create(Ctx, C->getCallee(), Args, C->getType(),
                                       C->getValueKind(), C->getRParenLoc(),
                                       FPO);
    return CallExpr::Create(Ctx, C->getCallee(), Args, C->getType(),
                            C->getValueKind(), C->getRParenLoc(), FPO,
                            /*MinNumArgs=*/0, C->getADLCallKind());
  }
  case Stmt::MemberExprClass: {
    auto *M = cast<MemberExpr>(S);
    TemplateArgumentListInfo TemplateArgs;
    if (M->hasExplicitTemplateArgs())
      M->copyTemplateArgumentsInto(TemplateArgs);
    MemberExpr *Copy = MemberExpr::Create(
        Ctx, M->getBase(), M->isArrow(), M->getOperatorLoc(),
        M->getQualifierLoc(), M->getTemplateKeywordLoc(), M->getMemberDecl(),
        M->getFoundDecl(), M->getMemberNameInfo(),
        M->hasExplicitTemplateArgs() ? &TemplateArgs : nullptr, M->getType(),
        M->getValueKind(), M->getObjectKind(), M->isNonOdrUse());
    Copy->setHadMultipleCandidates(M->hadMultipleCandidates());
    return Copy;
  }
  default:
    return nullptr;
  }
}

bool SpawnRewriter::isShared(const Stmt *S, const BodyWalk &Walk) const {
  return Walk.Shared && Walk.Shared->count(S);
}

void SpawnRewriter::ownStatement(Stmt *&S, BodyWalk &Walk) {
  if (!isShared(S, Walk))
    return;
  Stmt *Copy = copyNode(S);
  if (!Copy)
    return; // a kind that instantiation never shares (labels, switches)
  if (S == Walk.Body)
    Walk.Body = Copy;
  S = Copy;
}

namespace {

bool contains(const Stmt *S, const Stmt *Target) {
  if (S == Target)
    return true;
  for (const Stmt *Child : S->children())
    if (Child && contains(Child, Target))
      return true;
  return false;
}

} // namespace

Stmt *SpawnRewriter::ownPath(Stmt *&Slot, const Stmt *Target,
                             BodyWalk &Walk) {
  if (!contains(Slot, Target))
    return nullptr;
  bool AtTarget = Slot == Target;
  if (isShared(Slot, Walk)) {
    Stmt *Copy = copyNode(Slot);
    if (!Copy)
      return nullptr;
    Slot = Copy;
  }
  if (AtTarget)
    return Slot;
  // A node below a shared one is shared too: if Target is not, nothing
  // between Slot and it is.
  if (!isShared(Target, Walk))
    return const_cast<Stmt *>(Target);
  for (Stmt *&Child : Slot->children())
    if (Child)
      if (Stmt *Owned = ownPath(Child, Target, Walk))
        return Owned;
  return nullptr;
}

} // namespace weft
