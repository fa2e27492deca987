//===- ReducerUses.cpp - OpenCilk 2's reducer variables, each use a view --===//
//
// A reducer is a variable whose type is written `T cilk_reducer(I, R)`;
// ReducerTypes.cpp reads I and R from its declaration and reports the
// declarations that the rewrite here cannot follow. The walk
// (SpawnRewriter.cpp) hands each expression here first:
//
//   x             ==>  (*(T *)__weft_hyper_lookup((void *)&x, sizeof(T),
//                                                 alignof(T), I, R))
//   *p, p->m      ==>  the same with p for &x, where p is declared
//                      `T cilk_reducer(I, R) *p` (a parameter or a variable)
//   &x            ==>  unchanged where it initialises or is assigned to a
//                      `T cilk_reducer(I, R) *` (a parameter's included):
//                      the reducer itself, as in OpenCilk; elsewhere the
//                      address of the view, `&(*(T *)__weft_hyper_lookup(..))`
//
// and a local reducer's declaration gets a companion variable after it,
// which registers x as its own leftmost view once x is initialised, and
// whose cleanup unregisters it on every way out of x's scope (before x is
// destroyed):
//
//   T x = init;  ==>  T x = init, *__weft_reducer_key
//                        __attribute__((cleanup(__weft_hyper_unregister)))
//                        = __weft_hyper_register(&x, sizeof(T), alignof(T), I, R);
//
// A static or global reducer is registered by the runtime on its first
// lookup outside the leftmost strand (runtime/hyper.cpp). A use that the
// rewrite cannot follow is an error where it is written: an access through
// a reducer pointer that is not a variable (`p[i]`, `*(p + 1)`); and, found
// once the translation unit is complete, any use the walk did not reach or
// cannot make a view (ReducerGuard.cpp).
//
//===----------------------------------------------------------------------===//

#include "frontend/ReducerTypes.h"
#include "frontend/SpawnRewriter.h"
#include "shared/RuntimeABI.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace weft {
namespace {

constexpr const char *HyperLookupName = runtimeName(RuntimeFn::HyperLookup);
constexpr const char *HyperRegisterName =
    runtimeName(RuntimeFn::HyperRegister);
constexpr const char *HyperUnregisterName =
    runtimeName(RuntimeFn::HyperUnregister);

} // namespace

void SpawnRewriter::makeReducerFunctions() {
  if (HyperLookup)
    return;
  QualType Size = Ctx.getSizeType();
  QualType V = Ctx.VoidPtrTy;
  HyperLookup = makeMarker(HyperLookupName, V, {V, Size, Size, V, V});
  HyperRegister = makeMarker(HyperRegisterName, V, {V, Size, Size, V, V});
  HyperUnregister =
      makeMarker(HyperUnregisterName, Ctx.VoidTy, {Ctx.getPointerType(V)});
}

/// `Fn((void *)Key, sizeof(T), alignof(T), (void *)I, (void *)R)`, of type
/// `void *`.
Expr *SpawnRewriter::hyperCall(FunctionDecl *Fn, Expr *Key, QualType T,
                               const ReducerMonoid &M, SourceLocation Loc) {
  FPOptionsOverride FPO;
  auto ToVoidPtr = [&](Expr *E) -> Expr * {
    return ImplicitCastExpr::Create(Ctx, Ctx.VoidPtrTy, CK_BitCast, E,
                                    nullptr, VK_PRValue, FPO);
  };
  auto SizeLiteral = [&](CharUnits N) -> Expr * {
    QualType SizeTy = Ctx.getSizeType();
    llvm::APInt Value(Ctx.getTypeSize(SizeTy), N.getQuantity());
    return IntegerLiteral::Create(Ctx, Value, SizeTy, Loc);
  };
  Expr *Args[] = {ToVoidPtr(Key), SizeLiteral(Ctx.getTypeSizeInChars(T)),
                  SizeLiteral(Ctx.getTypeAlignInChars(T)),
                  ToVoidPtr(functionPointer(M.Identity, Loc)),
                  ToVoidPtr(functionPointer(M.Reduce, Loc))};
  return CallExpr::Create(Ctx, functionPointer(Fn, Loc), Args, Ctx.VoidPtrTy,
                          VK_PRValue, Loc, FPO);
}

/// `(*(T *)__weft_hyper_lookup(Key, ...))`: the calling strand's view of
/// the reducer whose address is \p Key, an lvalue of type \p T.
Expr *SpawnRewriter::reducerView(Expr *Key, QualType T, const ReducerMonoid &M,
                                 SourceLocation Loc) {
  FPOptionsOverride FPO;
  QualType Ptr = Ctx.getPointerType(T);
  Expr *View = ImplicitCastExpr::Create(Ctx, Ptr, CK_BitCast,
                                        hyperCall(HyperLookup, Key, T, M, Loc),
                                        nullptr, VK_PRValue, FPO);
  Expr *Deref = UnaryOperator::Create(Ctx, View, UO_Deref, T, VK_LValue,
                                      OK_Ordinary, Loc, false, FPO);
  return new (Ctx) ParenExpr(Loc, Loc, Deref);
}

/// The calling strand's view of the reducer whose address is \p Key, an
/// lvalue of type \p T with the identity and reduce that \p Site names;
/// null after an error, at the annotation or at \p Loc.
Expr *SpawnRewriter::annotatedView(Expr *Key, QualType T,
                                   const ReducerAnnotation &Site,
                                   SourceLocation Loc) {
  std::optional<ReducerMonoid> M = reducerMonoid(Site);
  if (!M || !completeReducerType(T, Loc))
    return nullptr;
  makeReducerFunctions();
  return reducerView(Key, T, *M, Loc);
}

Expr *SpawnRewriter::addressOf(Expr *LValue) {
  return UnaryOperator::Create(Ctx, LValue, UO_AddrOf,
                               Ctx.getPointerType(LValue->getType()),
                               VK_PRValue, OK_Ordinary, LValue->getBeginLoc(),
                               false, FPOptionsOverride());
}

void SpawnRewriter::noteReducerKey(QualType Destination, const Expr *Value) {
  if (isReducerReference(Destination))
    return noteReferredReducer(Value);
  if (!isReducerPointer(Destination))
    return;
  Value = Value->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<ConditionalOperator>(Value)) {
    noteReducerKey(Destination, C->getTrueExpr());
    noteReducerKey(Destination, C->getFalseExpr());
    return;
  }
  const auto *U = dyn_cast<UnaryOperator>(Value);
  if (U && U->getOpcode() == UO_AddrOf)
    ReducerKeys.insert(U);
}

/// As above, for the variable or parameter \p Destination: a reference is
/// a reducer reference only if it is declared one (its type may have the
/// reducer's annotation only because it was deduced from the reducer).
void SpawnRewriter::noteReducerKey(const VarDecl *Destination,
                                   const Expr *Value) {
  if (isReducerReference(Destination->getType())) {
    if (reducerReferenceAnnotation(Destination))
      noteReferredReducer(Value);
    return;
  }
  noteReducerKey(Destination->getType(), Value);
}

/// What a reducer reference is bound to, the reducer itself: a reducer
/// variable, member or reference, `*p` for a reducer pointer p.
void SpawnRewriter::noteReferredReducer(const Expr *Value) {
  Value = Value->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<ConditionalOperator>(Value)) {
    noteReferredReducer(C->getTrueExpr());
    noteReferredReducer(C->getFalseExpr());
    return;
  }
  const auto *U = dyn_cast<UnaryOperator>(Value);
  if (isa<DeclRefExpr, MemberExpr>(Value) ||
      (U && U->getOpcode() == UO_Deref))
    ReducerKeys.insert(Value);
}

/// The arguments of a constructor call, as noteReducerKeys does a call's.
void SpawnRewriter::noteConstructorKeys(const CXXConstructExpr *Construct) {
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  for (unsigned I = 0; I < Construct->getNumArgs() && I < Ctor->getNumParams();
       ++I)
    noteReducerKey(Ctor->getParamDecl(I), Construct->getArg(I));
}

/// The elements of a braced initialiser (a struct's members in order, or
/// an array's elements), as noteReducerKeys does a call's arguments.
void SpawnRewriter::noteListKeys(const InitListExpr *List) {
  QualType T = List->getType();
  if (const ArrayType *AT = Ctx.getAsArrayType(T)) {
    for (const Expr *Init : List->inits())
      noteReducerKey(AT->getElementType(), Init);
    return;
  }
  const auto *RD = T->getAsRecordDecl();
  if (!RD || RD->isUnion())
    return;
  unsigned I = 0;
  if (const auto *Class = dyn_cast<CXXRecordDecl>(RD))
    I = Class->getNumBases();
  for (const FieldDecl *Field : RD->fields()) {
    if (Field->isUnnamedBitField())
      continue;
    if (I >= List->getNumInits())
      break;
    noteReducerKey(Field->getType(), List->getInit(I++));
  }
}

/// Finds the `&x` that pass a reducer on: those that initialise, are
/// assigned to or are returned as a `T cilk_reducer(I, R) *`, a parameter's
/// included (a constructor's too).
void SpawnRewriter::noteReducerKeys(const Stmt *S, const BodyWalk &Walk) {
  if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (Return->getRetValue())
      noteReducerKey(Walk.Function->getReturnType(), Return->getRetValue());
    return;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    noteConstructorKeys(Construct);
    return;
  }
  if (const auto *List = dyn_cast<InitListExpr>(S)) {
    noteListKeys(List);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit())
        noteReducerKey(Var, Var->getInit());
    return;
  }
  if (const auto *Assign = dyn_cast<BinaryOperator>(S)) {
    if (Assign->getOpcode() == BO_Assign)
      noteReducerKey(Assign->getLHS()->getType(), Assign->getRHS());
    return;
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return;
  QualType Callee = Call->getCallee()->getType();
  if (const auto *P = Callee->getAs<PointerType>())
    Callee = P->getPointeeType();
  const auto *Proto = Callee->getAs<FunctionProtoType>();
  const FunctionDecl *Direct = Call->getDirectCallee();
  unsigned Skip = isa<CXXOperatorCallExpr>(Call) &&
                          isa_and_nonnull<CXXMethodDecl>(Direct)
                      ? 1 // the object argument
                      : 0;
  for (unsigned I = Skip; I < Call->getNumArgs(); ++I) {
    unsigned Param = I - Skip;
    if (Direct && Param < Direct->getNumParams())
      noteReducerKey(Direct->getParamDecl(Param), Call->getArg(I));
    else if (Proto && Param < Proto->getNumParams())
      noteReducerKey(Proto->getParamType(Param), Call->getArg(I));
  }
}

bool SpawnRewriter::rewriteReducerUse(Stmt *&S, BodyWalk &Walk) {
  if (Walk.Dependent)
    return false;
  noteReducerKeys(S, Walk);
  auto *E = dyn_cast<Expr>(S);
  if (!E)
    return false;
  // &x passed on as a reducer pointer, and x (or *p) bound to a reducer
  // reference, are the reducer itself (OpenCilk's key); anywhere else &x
  // is the address of the strand's view, which the walk makes of x below
  // it.
  if (ReducerKeys.count(E))
    return true;
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref &&
        isReducerPointer(U->getSubExpr()->getType()) &&
        !pointsToOthers(U->getSubExpr())) {
      QualType T = U->getType().getCanonicalType();
      std::optional<ReducerMonoid> M =
          pointeeMonoid(U->getSubExpr(), U->getOperatorLoc());
      if (!M || !completeReducerType(T, U->getOperatorLoc()))
        return true;
      makeReducerFunctions();
      S = reducerView(U->getSubExpr(), T, *M, U->getOperatorLoc());
      return true;
    }
    return false;
  }
  if (auto *ME = dyn_cast<MemberExpr>(E); ME && reducerField(ME))
    return rewriteMemberUse(S, ME, Walk);
  if (auto *ME = dyn_cast<MemberExpr>(E))
    if (auto *Var = dyn_cast<VarDecl>(ME->getMemberDecl());
        Var && rewritableReducer(Var))
      return rewriteStaticMemberUse(S, ME, Var, Walk);
  if (auto *ME = dyn_cast<MemberExpr>(E);
      ME && ME->isArrow() && isReducerPointer(ME->getBase()->getType()) &&
      !pointsToOthers(ME->getBase())) {
    Expr *Base = ME->getBase();
    QualType T = Base->getType()->getPointeeType().getCanonicalType();
    std::optional<ReducerMonoid> M = pointeeMonoid(Base, ME->getOperatorLoc());
    if (!M || !completeReducerType(T, ME->getOperatorLoc()))
      return true;
    makeReducerFunctions();
    FPOptionsOverride FPO;
    Expr *View = ImplicitCastExpr::Create(
        Ctx, Ctx.getPointerType(T), CK_BitCast,
        hyperCall(HyperLookup, Base, T, *M, ME->getOperatorLoc()), nullptr,
        VK_PRValue, FPO);
    ME->setBase(View);
    return true; // nothing inside the base is a reducer use
  }
  if (auto *Sub = dyn_cast<ArraySubscriptExpr>(E);
      Sub && isReducerPointer(Sub->getBase()->getType()) &&
      !pointsToOthers(Sub->getBase())) {
    error(Sub->getExprLoc(), "a reducer pointer cannot be indexed: an array "
                             "of reducers is not supported; dereference a "
                             "pointer to one reducer ('*p')");
    return true;
  }
  if (auto *Default = dyn_cast<CXXDefaultArgExpr>(E)) {
    // Instantiated with the call that needs it, after its function.
    rewriteDefaultArgument(const_cast<ParmVarDecl *>(Default->getParam()));
    return false;
  }
  auto *Ref = dyn_cast<DeclRefExpr>(E);
  auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (Var && Ref->isNonOdrUse() == NOUR_Constant && Var->getInit() &&
      mentionsReducer(Var->getInit())) {
    // Inside a lambda that does not capture it, a local reference is no
    // variable the lambda can read: only its constant was.
    if (Var->hasLocalStorage() && Var->getDeclContext() != Walk.Function) {
      error(Ref->getLocation(),
            "'" + Var->getName().str() +
                "' is bound to a reducer, and this lambda does not capture "
                "it, so this use cannot get the strand's view: name the "
                "reducer itself here, or take a reducer pointer "
                "('T cilk_reducer(identity, reduce) *p = &x') and capture "
                "that");
      return true;
    }
    S = odrUse(Ref);
    return true;
  }
  if (Var && isReducerReference(Var->getType()) &&
      reducerReferenceAnnotation(Var))
    return rewriteReferenceUse(S, Ref, Var);
  if (!Var || !isReducerType(Var->getType()))
    return false;
  SourceLocation Loc = Ref->getLocation();
  ReducerAnnotation Site = reducerAnnotation(Var);
  if (!Site || isa<ParmVarDecl>(Var))
    return true; // reported at the declaration (checkReducerDeclaration)
  QualType T = Var->getType().getCanonicalType();
  if (Expr *View = annotatedView(addressOf(Ref), T, Site, Loc))
    S = View;
  return true;
}

/// `r` for a reducer reference r (`T cilk_reducer(I, R) &r`): the view of
/// the reducer it is bound to, `(*(T *)__weft_hyper_lookup(&r, ...))`.
bool SpawnRewriter::rewriteReferenceUse(Stmt *&S, DeclRefExpr *Ref,
                                        const VarDecl *Var) {
  ReducerAnnotation Site = reducerReferenceAnnotation(Var);
  if (!Site)
    return true; // reported at the declaration
  QualType T = Ref->getType().getCanonicalType();
  if (Expr *View = annotatedView(addressOf(Ref), T, Site, Ref->getLocation()))
    S = View;
  return true;
}

/// `obj.s` for a static data member s that is a reducer: the view of s,
/// after the object's expression if it has effects of its own.
bool SpawnRewriter::rewriteStaticMemberUse(Stmt *&S, MemberExpr *ME,
                                           VarDecl *Var, BodyWalk &Walk) {
  Stmt *Base = ME->getBase();
  walk(Base, Walk);
  ME->setBase(cast<Expr>(Base));
  SourceLocation Loc = ME->getMemberLoc();
  QualType T = ME->getType().getCanonicalType();
  auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                  SourceLocation(), Var, false, Loc,
                                  Var->getType(), VK_LValue);
  Expr *View = annotatedView(addressOf(Ref), T, reducerAnnotation(Var), Loc);
  if (!View)
    return true;
  Expr *Object = ME->getBase();
  if (Object->HasSideEffects(Ctx)) {
    Expr *Discarded = ImplicitCastExpr::Create(
        Ctx, Ctx.VoidTy, CK_ToVoid, Object, nullptr, VK_PRValue,
        FPOptionsOverride());
    View = BinaryOperator::Create(Ctx, Discarded, View, BO_Comma, T,
                                  VK_LValue, OK_Ordinary, Loc,
                                  FPOptionsOverride());
  }
  S = View;
  return true;
}

/// `obj.m`, `p->m` or `m` (in a member function) for a reducer member m:
/// the calling strand's view of the member, after the object's expression
/// is walked. In a constructor's member initialisers, the object's own
/// members stay its storage (ReducerMembers.cpp).
bool SpawnRewriter::rewriteMemberUse(Stmt *&S, MemberExpr *ME,
                                     BodyWalk &Walk) {
  Stmt *Base = ME->getBase();
  walk(Base, Walk);
  ME->setBase(cast<Expr>(Base));
  if (Walk.ConstructorInits &&
      isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return true;
  QualType T = ME->getType().getCanonicalType();
  if (Expr *View = annotatedView(addressOf(ME), T,
                                 reducerAnnotation(reducerField(ME)),
                                 ME->getMemberLoc()))
    S = View;
  return true;
}

/// Whether Sema copies the default argument or member initialiser \p S
/// into each use (Sema::BuildCXXDefaultArgExpr): it holds
/// __builtin_source_location() (std::source_location::current()) or a
/// consteval call. The walk cannot reach those copies.
bool SpawnRewriter::copiedPerCall(const Stmt *S) {
  if (isa<SourceLocExpr>(S))
    return true;
  if (const auto *C = dyn_cast<ConstantExpr>(S); C && C->isImmediateInvocation())
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->isImmediateFunction())
      return true;
  for (const Stmt *Child : S->children())
    if (Child && copiedPerCall(Child))
      return true;
  return false;
}

/// \p Ref, a use that Sema found needs no load because its variable is a
/// constant (`T &r = x;` or a range loop's `auto &&__range = x;` for a
/// static x), as a real use. Its initialiser is now a lookup, whose value
/// is no constant: CodeGen must read the variable.
Expr *SpawnRewriter::odrUse(DeclRefExpr *Ref) {
  return DeclRefExpr::Create(
      Ctx, Ref->getQualifierLoc(), Ref->getTemplateKeywordLoc(),
      Ref->getDecl(), Ref->refersToEnclosingVariableOrCapture(),
      Ref->getNameInfo(), Ref->getType(), Ref->getValueKind(),
      Ref->getFoundDecl(), nullptr, NOUR_None);
}

/// Drops the constant value Sema computed for each variable of \p S whose
/// initialiser uses a reducer (which odrUse stops CodeGen from folding in).
void SpawnRewriter::forgetConstantValues(Stmt *S) {
  auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS)
    return;
  for (Decl *D : DS->decls())
    if (auto *Var = dyn_cast<VarDecl>(D);
        Var && Var->getInit() && mentionsReducer(Var->getInit()))
      Var->setInit(Var->getInit());
}

/// A default argument is evaluated by each call, in the caller's strand:
/// rewritten once, it is that strand's view wherever it is used.
void SpawnRewriter::rewriteDefaultArgument(ParmVarDecl *P) {
  if (!P->hasDefaultArg() || P->hasUnparsedDefaultArg() ||
      P->hasUninstantiatedDefaultArg() || !WalkedDefaults.insert(P).second)
    return;
  const auto *Fn = dyn_cast<FunctionDecl>(P->getDeclContext());
  Expr *Init = P->getDefaultArg();
  // A copy for each call is made from the argument as written, which must
  // stay Sema's own; the guard reports the reducer in it (ReducerGuard.cpp).
  if (!Fn || !Init || Init->isValueDependent() || Init->isTypeDependent() ||
      !mentionsReducer(Init) || copiedPerCall(Init))
    return;
  BodyWalk Walk(Fn, /*Dependent=*/false, Init);
  noteReducerKey(P, Init);
  Stmt *S = Init;
  walk(S, Walk);
  if (S != Init)
    P->setDefaultArg(cast<Expr>(S));
}

/// `void *__weft_reducer_key __attribute__((cleanup(__weft_hyper_unregister)))
/// = Init;`, in \p DC: the companion that unregisters the reducer whose
/// key Init gives on every way out of its scope.
VarDecl *SpawnRewriter::unregisteringKey(DeclContext *DC, Expr *Init,
                                         SourceLocation Loc) {
  auto *Key = VarDecl::Create(
      Ctx, DC, Loc, Loc, &Ctx.Idents.get("__weft_reducer_key"), Ctx.VoidPtrTy,
      Ctx.getTrivialTypeSourceInfo(Ctx.VoidPtrTy, Loc), SC_None);
  Key->setImplicit(true);
  Key->setInit(Init);
  Key->addAttr(CleanupAttr::CreateImplicit(Ctx, HyperUnregister));
  return Key;
}

void SpawnRewriter::registerLocalReducers(Stmt *&S, BodyWalk &Walk) {
  auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS || Walk.Dependent)
    return;
  SmallVector<Decl *, 4> Decls;
  bool Changed = false;
  for (Decl *D : DS->decls()) {
    Decls.push_back(D);
    auto *Var = dyn_cast<VarDecl>(D);
    if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
        !isReducerType(Var->getType()))
      continue;
    ReducerAnnotation Site = reducerAnnotation(Var);
    if (!Site)
      continue; // reported at the declaration
    SourceLocation Loc = Var->getLocation();
    std::optional<ReducerMonoid> M = reducerMonoid(Site);
    QualType T = Var->getType().getCanonicalType();
    if (!M || !completeReducerType(T, Loc))
      continue;
    makeReducerFunctions();
    auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                    SourceLocation(), Var, false, Loc,
                                    Var->getType(), VK_LValue);
    Decls.push_back(unregisteringKey(
        Var->getDeclContext(),
        hyperCall(HyperRegister, addressOf(Ref), T, *M, Loc), Loc));
    Changed = true;
  }
  if (!Changed)
    return;
  DeclGroupRef Group = DeclGroupRef::Create(Ctx, Decls.data(), Decls.size());
  S = new (Ctx) DeclStmt(Group, DS->getBeginLoc(), DS->getEndLoc());
}

} // namespace weft
