//===- ReducerGuard.cpp - No reducer use left as the leftmost view --------===//
//
// The walk (ReducerUses.cpp) rewrites the reducer uses in function bodies
// and in default arguments. A use anywhere else that CodeGen emits would
// still name the variable itself, which is the leftmost view on every
// strand: a silent wrong answer. Once the translation unit is complete,
// this walks everything CodeGen will see (bodies, template instantiations
// included; lambdas; default member initialisers; default arguments and
// their per-call copies; variable initialisers) and reports each use of a
// reducer variable, and each `*p` or `p->m` through a reducer pointer,
// that is still there.
//
// What the rewrite leaves on purpose, and the guard accepts:
//   - the key `&x` (or p) of a __weft_hyper_lookup or __weft_hyper_register
//     call;
//   - `&x` passed on as a `T cilk_reducer(I, R) *`: the reducer itself;
//   - a lambda's capture of x by reference (its body looks x up);
//   - the initialiser of a namespace-scope (or static data member)
//     variable that is not thread_local: it runs before main, on the
//     leftmost strand, where x is its own view;
//   - unevaluated operands (sizeof, alignof, decltype, noexcept, typeid of
//     a non-polymorphic type) and constants Sema has folded.
//
// The initialiser of a static or thread_local variable that is not at
// namespace scope before main runs once, on whichever strand gets there
// first: a lookup there (`static T &r = x;`) is reported too.
//
//===----------------------------------------------------------------------===//

#include "frontend/ClangCompat.h"
#include "frontend/SpawnRewriter.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace weft {

/// Walks what CodeGen emits, reporting each use of a reducer that is not a
/// lookup.
class ReducerGuard : public RecursiveASTVisitor<ReducerGuard> {
  using Base = RecursiveASTVisitor<ReducerGuard>;

public:
  explicit ReducerGuard(SpawnRewriter &R) : R(R) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  /// Template patterns are never emitted; their instantiations are.
  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (const auto *DC = dyn_cast<DeclContext>(D);
        DC && DC->isDependentContext() && !isa<TranslationUnitDecl>(D))
      return true;
    if (isa<StaticAssertDecl>(D))
      return true;
    return Base::TraverseDecl(D);
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) { return function(FD); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) { return function(FD); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) {
    return function(FD);
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) { return function(FD); }
  bool TraverseCXXConversionDecl(CXXConversionDecl *FD) { return function(FD); }

  bool TraverseVarDecl(VarDecl *Var) {
    if (isa<ParmVarDecl>(Var))
      return TraverseParmVarDecl(cast<ParmVarDecl>(Var));
    Site Saved = Where;
    if (Var->getTLSKind() != VarDecl::TLS_None || Var->isStaticLocal())
      Where = Site::Once;
    else if (Var->hasGlobalStorage())
      Where = Site::BeforeMain;
    if (Var->getInit())
      R.noteReducerKey(Var, Var->getInit());
    bool Result = Base::TraverseVarDecl(Var);
    Where = Saved;
    return Result;
  }

  bool TraverseParmVarDecl(ParmVarDecl *P) {
    if (!P->hasDefaultArg() || P->hasUnparsedDefaultArg() ||
        P->hasUninstantiatedDefaultArg() || !P->getDefaultArg())
      return true;
    R.noteReducerKey(P, P->getDefaultArg());
    return inSite(Site::DefaultArg, P->getDefaultArg());
  }

  bool TraverseFieldDecl(FieldDecl *F) {
    Expr *Init = F->getInClassInitializer();
    if (!Init)
      return true;
    R.noteReducerKey(F->getType(), Init);
    return inSite(Site::MemberInit, Init);
  }

  bool TraverseCXXDefaultArgExpr(CXXDefaultArgExpr *E,
                                 DataRecursionQueue * = nullptr) {
    const ParmVarDecl *P = E->getParam();
    R.noteReducerKey(P, E->getExpr());
    return inSite(Site::DefaultArg, E->getExpr());
  }

  bool TraverseCXXDefaultInitExpr(CXXDefaultInitExpr *E,
                                  DataRecursionQueue * = nullptr) {
    R.noteReducerKey(E->getField()->getType(), E->getExpr());
    return inSite(Site::MemberInit, E->getExpr());
  }

  /// The captures are evaluated where the lambda is; the body, called
  /// later, is a function of its own.
  bool TraverseLambdaExpr(LambdaExpr *Lambda, DataRecursionQueue * = nullptr) {
    for (auto [Capture, Init] :
         llvm::zip(Lambda->captures(), Lambda->capture_inits())) {
      if (!Init)
        continue;
      if (Capture.capturesVariable() &&
          Capture.getCaptureKind() == LCK_ByRef)
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Init->IgnoreImplicit()))
          Allowed.insert(Ref);
      if (!TraverseStmt(Init))
        return false;
    }
    CXXMethodDecl *Call = Lambda->getCallOperator();
    if (Lambda->isGenericLambda()) {
      for (FunctionDecl *Spec :
           Lambda->getDependentCallOperator()->specializations())
        if (!function(Spec))
          return false;
      return true;
    }
    return function(Call);
  }

  // Never evaluated.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *,
                                        DataRecursionQueue * = nullptr) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *,
                               DataRecursionQueue * = nullptr) {
    return true;
  }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E,
                             DataRecursionQueue *Q = nullptr) {
    return E->isPotentiallyEvaluated() ? Base::TraverseCXXTypeidExpr(E, Q)
                                       : true;
  }
  bool TraverseConstantExpr(ConstantExpr *E, DataRecursionQueue *Q = nullptr) {
    return E->hasAPValueResult() ? true : Base::TraverseConstantExpr(E, Q);
  }
  // (Clang 22 passes whether to traverse the qualifier, too.)
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = true) { return true; }
  bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc, bool = true) {
    return true;
  }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &) {
    return true;
  }

  bool VisitStmt(Stmt *S) {
    // The `&x` that pass the reducer on, as the walk finds them.
    SpawnRewriter::BodyWalk Walk(Function, false, nullptr);
    if (Function || !isa<ReturnStmt>(S))
      R.noteReducerKeys(S, Walk);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    checkAssignment(Call);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() == 0 ||
        (Callee != R.HyperLookup && Callee != R.HyperRegister))
      return true;
    const Expr *Key = Call->getArg(0)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Key);
        U && U->getOpcode() == UO_AddrOf)
      Key = U->getSubExpr()->IgnoreParenImpCasts();
    if (isa<DeclRefExpr, MemberExpr>(Key))
      Allowed.insert(Key);
    // A lookup in a once-only initialiser binds the first strand's view.
    if (Where == Site::Once && Callee == R.HyperLookup)
      report(Call->getBeginLoc(), keyName(Key));
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf && R.ReducerKeys.count(U))
      if (const Expr *Key = U->getSubExpr()->IgnoreParenImpCasts();
          isa<DeclRefExpr, MemberExpr>(Key))
        Allowed.insert(Key);
    if (U->getOpcode() == UO_Deref && !R.ReducerKeys.count(U) &&
        R.rewritableDeref(U->getSubExpr()))
      report(U->getOperatorLoc(), keyName(U->getSubExpr()));
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    if (ME->isArrow() && R.rewritableDeref(ME->getBase()))
      report(ME->getOperatorLoc(), keyName(ME->getBase()));
    // A reducer member; in a constructor's member initialisers the
    // object's own are its storage (ReducerMembers.cpp).
    if (R.rewritableMember(ME) && !Allowed.count(ME) &&
        !R.ReducerKeys.count(ME) &&
        Where != Site::BeforeMain &&
        !(InConstructorInits &&
          isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())))
      report(ME->getMemberLoc(),
             "'" + ME->getMemberDecl()->getName().str() + "'");
    return checkStaticMember(ME);
  }

  /// `obj.s` for a static data member s that is a reducer.
  bool checkStaticMember(MemberExpr *ME) {
    const auto *Var = dyn_cast<VarDecl>(ME->getMemberDecl());
    if (Var && !Allowed.count(ME) && !R.ReducerKeys.count(ME) &&
        Where != Site::BeforeMain && R.rewritableReducer(Var))
      report(ME->getMemberLoc(), "'" + Var->getName().str() + "'");
    return true;
  }

  /// An object of a class with reducer members made without a constructor
  /// of the class, which would register them (ReducerMembers.cpp).
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    const CXXConstructorDecl *Ctor = E->getConstructor();
    if (!Ctor->isTrivial() || !R.containsReducerMembers(E->getType()))
      return true;
    std::string Name = className(E->getType());
    std::string Fix =
        Ctor->isDefaultConstructor()
            ? "give '" + Name + "' a default constructor ('" + Name + "() {}')"
            : "give '" + Name + "' a copy constructor that initialises its "
              "members, or delete it ('" + Name + "(const " + Name +
              " &) = delete;')";
    R.error(E->getBeginLoc(),
            "making a '" + Name + "' here runs no constructor of its class, "
            "so its reducer members (cilk_reducer) would not be registered: " +
            Fix);
    return true;
  }

  bool VisitInitListExpr(InitListExpr *E) {
    if (!E->getType()->isRecordType() ||
        !R.containsReducerMembers(E->getType()))
      return true;
    std::string Name = className(E->getType());
    R.error(E->getBeginLoc(),
            "'" + Name + "' has reducer members (cilk_reducer), which "
            "aggregate initialisation would not register: give '" + Name +
            "' a constructor");
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    // `&S::m` for a reducer member m: `obj.*pm` would be the member itself.
    if (const auto *F = dyn_cast<FieldDecl>(Ref->getDecl());
        F && R.isReducerMember(F)) {
      R.error(Ref->getLocation(),
              "a pointer to reducer member '" + F->getName().str() +
                  "' cannot be taken: an access through it would not get "
                  "the calling strand's view; name the member, or pass "
                  "'&obj." + F->getName().str() + "' as a reducer pointer");
      return true;
    }
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || Allowed.count(Ref) || R.ReducerKeys.count(Ref) ||
        Where == Site::BeforeMain ||
        !R.rewritableReducer(Var))
      return true;
    report(Ref->getLocation(), "'" + Var->getName().str() + "'");
    return true;
  }

private:
  /// Where the expression being walked runs.
  enum class Site {
    Body,       // a function's body: each strand at its own time
    BeforeMain, // a namespace-scope initialiser: the leftmost strand
    Once,       // a static or thread_local variable's initialiser
    MemberInit, // a default member initialiser
    DefaultArg, // a default argument (or Sema's copy of one for a call)
  };

  bool function(FunctionDecl *FD) {
    if (FD->isDependentContext())
      return true;
    const FunctionDecl *SavedFunction = Function;
    Site Saved = Where;
    Function = FD;
    Where = Site::Body;
    bool Result = true;
    for (ParmVarDecl *P : FD->parameters())
      if (!(Result = TraverseParmVarDecl(P)))
        break;
    if (Result)
      if (auto *Ctor = dyn_cast<CXXConstructorDecl>(FD)) {
        InConstructorInits = true;
        for (CXXCtorInitializer *Init : Ctor->inits())
          if (!(Result = TraverseConstructorInitializer(Init)))
            break;
        InConstructorInits = false;
      }
    if (Result && FD->doesThisDeclarationHaveABody())
      Result = TraverseStmt(FD->getBody());
    Function = SavedFunction;
    Where = Saved;
    return Result;
  }

  bool inSite(Site S, Expr *E) {
    Site Saved = Where;
    Where = S;
    bool Result = TraverseStmt(E);
    Where = Saved;
    return Result;
  }

  /// A class with reducer members assigned by its trivial assignment
  /// operator, which copies the bytes of the leftmost views.
  void checkAssignment(const CallExpr *Call) {
    const auto *Assign =
        dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (!Assign || !Assign->isTrivial() ||
        !(Assign->isCopyAssignmentOperator() ||
          Assign->isMoveAssignmentOperator()))
      return;
    QualType Class = compat::recordType(Ctx(), Assign->getParent());
    if (!R.containsReducerMembers(Class))
      return;
    std::string Name = className(Class);
    R.error(Call->getBeginLoc(),
            "assigning a '" + Name + "' here copies its reducer members "
            "(cilk_reducer) as bytes, not the strand's views: give '" +
            Name + "' an assignment operator, or delete it");
  }

  ASTContext &Ctx() const { return R.Ctx; }

  static std::string className(QualType T) {
    const CXXRecordDecl *Class = T->getAsCXXRecordDecl();
    return Class ? Class->getNameAsString() : T.getAsString();
  }

  static std::string keyName(const Expr *Key) {
    Key = Key->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Key))
      return "'" + Ref->getDecl()->getName().str() + "'";
    return "a reducer";
  }

  /// The error at a use of the reducer \p Name (or of the pointer to it).
  void report(SourceLocation Loc, const std::string &Name) {
    std::string Msg = "this use of reducer " + Name +
                      " cannot get the calling strand's view, ";
    switch (Where) {
    case Site::Body:
    case Site::BeforeMain:
      Msg += "because the reducer rewrite does not reach it: use the "
             "reducer in a plain statement of the function body";
      break;
    case Site::Once:
      Msg += "because a static or thread_local variable's initialiser runs "
             "once, on whichever strand gets there first: use the reducer "
             "inside the function body, or keep a reducer pointer "
             "('T cilk_reducer(identity, reduce) *p = &x')";
      break;
    case Site::MemberInit:
      Msg += "because a default member initialiser is not rewritten: "
             "initialise the member in a constructor's body or where the "
             "object is made, or make it a reducer pointer "
             "('T cilk_reducer(identity, reduce) *p = &x')";
      break;
    case Site::DefaultArg:
      Msg += "because Clang copies a default argument holding "
             "std::source_location::current(), __builtin_source_location() "
             "or a consteval call into each call, where it is not "
             "rewritten: pass the argument explicitly, or pass &x to a "
             "'T cilk_reducer(identity, reduce) *' parameter";
      break;
    }
    R.error(Loc, Msg);
  }

  SpawnRewriter &R;
  const FunctionDecl *Function = nullptr;
  Site Where = Site::BeforeMain;
  bool InConstructorInits = false;
  llvm::DenseSet<const Expr *> Allowed;
};

void SpawnRewriter::checkRemainingReducerUses(TranslationUnitDecl *TU) {
  if (SawReducer)
    ReducerGuard(*this).TraverseDecl(TU);
}

} // namespace weft
