//===- ReducerTypes.cpp - Which declarations are reducers -----------------===//
//
// With the plugin, <cilk/cilk.h> spells OpenCilk 2's reducer qualifier
// `T cilk_reducer(I, R)` as the type attribute
// `T [[clang::annotate_type("weft_reducer", I, R)]]` (in C++, I and R
// converted to the callbacks' pointer types). Clang 19 keeps the
// attribute's arguments only in the declaration's type as written (its
// TypeLoc), not in the type, so I and R are found from a declaration: the
// variable's own, or the typedef or alias template it names. A type
// annotated for another tool is no reducer. Where I or R depends on a
// template parameter (`zero<T>`: an alias template as OpenCilk's headers
// write one, or a declaration in a function template, whose instantiation
// keeps the pattern's annotation), Sema instantiates it with the alias
// specialization's or the function instantiation's arguments
// (annotatedFunction()), which also instantiates the function.
//
// The rewrite of the uses (ReducerUses.cpp) asks here whether a type is a
// reducer and what its I and R are. The forms it cannot follow are errors
// where they are written: a reducer data member, array, parameter by
// value, reference, thread-local or return type; a reducer captured by
// copy; a use through a pointer that is not a reducer pointer variable;
// I or R that is not a function's name, or not a function of the
// callback's shape; a reducer whose type is incomplete where it is used.
//
//===----------------------------------------------------------------------===//

#include "frontend/ClangCompat.h"
#include "frontend/ReducerTypes.h"
#include "frontend/SpawnRewriter.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/Template.h"

using namespace clang;

namespace weft {
namespace {

/// The type \p TL is written in terms of, one layer of sugar down: an
/// attribute's modified type, a parenthesised type's inside, an elaborated
/// name's type, a typedef's or an alias template's definition; null when
/// \p TL is none of these.
TypeLoc throughSugar(TypeLoc TL) {
  if (auto A = TL.getAs<AttributedTypeLoc>())
    return A.getModifiedLoc();
  if (auto P = TL.getAs<ParenTypeLoc>())
    return P.getInnerLoc();
  if (std::optional<TypeLoc> Named = compat::elaboratedNamed(TL))
    return *Named;
  const TypeSourceInfo *Definition = nullptr;
  if (auto T = TL.getAs<TypedefTypeLoc>())
    Definition = compat::typedefDecl(T)->getTypeSourceInfo();
  else if (auto S = TL.getAs<TemplateSpecializationTypeLoc>())
    if (const auto *Alias = dyn_cast_or_null<TypeAliasTemplateDecl>(
            S.getTypePtr()->getTemplateName().getAsTemplateDecl()))
      Definition = Alias->getTemplatedDecl()->getTypeSourceInfo();
  return Definition ? Definition->getTypeLoc() : TypeLoc();
}

/// How a variable reaches a reducer: by pointer or by reference.
enum class Through { Pointer, Reference };

/// The annotation on the pointee of the pointer or reference type written
/// as \p TL.
ReducerAnnotation reducerPointeeAnnotation(TypeLoc TL, Through Kind) {
  for (; !TL.isNull(); TL = throughSugar(TL)) {
    TL = TL.getUnqualifiedLoc();
    if (auto P = TL.getAs<PointerTypeLoc>(); P && Kind == Through::Pointer)
      return reducerAnnotation(P.getPointeeLoc());
    if (auto R = TL.getAs<ReferenceTypeLoc>(); R && Kind == Through::Reference)
      return reducerAnnotation(R.getPointeeLoc());
  }
  return ReducerAnnotation();
}

/// The function named by an argument of the annotation, or null. In C++
/// the header converts each to the callback's type, which also resolves a
/// template-id (`zero<long>`).
FunctionDecl *namedFunction(Expr *E) {
  E = E->IgnoreParenCasts();
  if (auto *C = dyn_cast<ConstantExpr>(E))
    E = C->getSubExpr()->IgnoreParenCasts();
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
}

/// Whether \p FD is `void f(P *)` with \p Params pointer parameters.
bool isCallback(const FunctionDecl *FD, unsigned Params) {
  if (!FD->getReturnType()->isVoidType() || FD->getNumParams() != Params)
    return false;
  for (const ParmVarDecl *P : FD->parameters())
    if (!P->getType()->isPointerType())
      return false;
  return true;
}

/// Whether the type written as \p TL carries a clang::annotate_type other
/// than `weft_reducer` and no `weft_reducer`: a type that the annotation
/// marks for another tool, not a reducer. (Clang 19's AttributedType does
/// not keep the annotation's arguments, so a `long` annotated for another
/// tool is the same type as a reducer of long: only the declaration can
/// tell them apart.)
bool otherAnnotation(TypeLoc TL, bool Pointee) {
  bool Other = false;
  while (!TL.isNull()) {
    TL = TL.getUnqualifiedLoc();
    if (auto A = TL.getAs<AttributedTypeLoc>()) {
      const auto *Ann = dyn_cast_or_null<AnnotateTypeAttr>(A.getAttr());
      if (Ann && !Pointee) {
        if (Ann->getAnnotation() == "weft_reducer")
          return false;
        Other = true;
      }
      TL = A.getModifiedLoc();
    } else if (auto P = TL.getAs<PointerTypeLoc>(); P && Pointee) {
      TL = P.getPointeeLoc();
      Pointee = false;
    } else if (auto R = TL.getAs<ReferenceTypeLoc>(); R && !Pointee) {
      TL = R.getPointeeLoc();
    } else if (auto Array = TL.getAs<ArrayTypeLoc>(); Array && !Pointee) {
      TL = Array.getElementLoc();
    } else if (auto Paren = TL.getAs<ParenTypeLoc>()) {
      TL = Paren.getInnerLoc();
    } else if (std::optional<TypeLoc> Named = compat::elaboratedNamed(TL)) {
      TL = *Named;
    } else if (auto T = TL.getAs<TypedefTypeLoc>()) {
      const TypeSourceInfo *TSI = compat::typedefDecl(T)->getTypeSourceInfo();
      if (!TSI)
        break;
      TL = TSI->getTypeLoc();
    } else {
      break;
    }
  }
  return Other;
}

const VarDecl *referencedVar(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Whether \p D is declared with another tool's annotation, not a reducer.
bool annotatedForOthers(const ValueDecl *D, bool Pointee) {
  const auto *DD = dyn_cast_or_null<DeclaratorDecl>(D);
  return DD && otherAnnotation(writtenType(DD), Pointee);
}

} // namespace

/// The `weft_reducer` annotation on the type written as \p TL, looking
/// through qualifiers, parentheses, typedefs and alias templates, with the
/// last alias template specialization passed on the way; none if there is
/// no annotation.
ReducerAnnotation reducerAnnotation(TypeLoc TL) {
  ReducerAnnotation Found;
  for (; !TL.isNull(); TL = throughSugar(TL)) {
    TL = TL.getUnqualifiedLoc();
    if (auto A = TL.getAs<AttributedTypeLoc>())
      if (const auto *Ann = dyn_cast_or_null<AnnotateTypeAttr>(A.getAttr());
          Ann && Ann->getAnnotation() == "weft_reducer") {
        Found.Attr = Ann;
        return Found;
      }
    if (auto S = TL.getAs<TemplateSpecializationTypeLoc>())
      if (auto *Alias = dyn_cast_or_null<TypeAliasTemplateDecl>(
              S.getTypePtr()->getTemplateName().getAsTemplateDecl())) {
        Found.Alias = Alias;
        Found.Args = S.getTypePtr()->template_arguments();
        Found.Specialization = S.getTypePtr()->getCanonicalTypeInternal()
                                   .getTypePtr();
      }
  }
  return ReducerAnnotation();
}

const AnnotateTypeAttr *reducerAttr(TypeLoc TL) {
  return reducerAnnotation(TL).Attr;
}

/// The template instantiation \p D is declared in, or null: the function
/// template's for a local declaration, the class's (a class template
/// specialization, or a member class of one) for a data member.
static const Decl *enclosingInstantiation(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  if (const auto *FD = dyn_cast<FunctionDecl>(DC))
    return FD->isTemplateInstantiation() ? FD : nullptr;
  const auto *Class = dyn_cast<CXXRecordDecl>(DC);
  if (isa<FieldDecl>(D) && Class && Class->getTemplateInstantiationPattern())
    return Class;
  return nullptr;
}

ReducerAnnotation reducerAnnotation(const DeclaratorDecl *D) {
  ReducerAnnotation Site = reducerAnnotation(writtenType(D));
  Site.Instantiation = enclosingInstantiation(D);
  return Site;
}

/// The annotation on the pointee of \p Var's pointer (or reference) type
/// as written, with the function template instantiation Var is declared
/// in; none for a null \p Var.
static ReducerAnnotation reducerPointeeAnnotation(const VarDecl *Var,
                                                  Through Kind = Through::Pointer) {
  if (!Var)
    return ReducerAnnotation();
  ReducerAnnotation Site = reducerPointeeAnnotation(writtenType(Var), Kind);
  Site.Instantiation = enclosingInstantiation(Var);
  return Site;
}

ReducerAnnotation reducerReferenceAnnotation(const VarDecl *Var) {
  return reducerPointeeAnnotation(Var, Through::Reference);
}

/// The type of \p D as written, or a null TypeLoc if it has none.
TypeLoc writtenType(const DeclaratorDecl *D) {
  const TypeSourceInfo *TSI = D->getTypeSourceInfo();
  return TSI ? TSI->getTypeLoc() : TypeLoc();
}

/// Whether the pointer \p E is reached from a variable whose pointee
/// carries another tool's annotation (`*(p + 1)` for such a p).
bool pointsToOthers(const Stmt *E) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return annotatedForOthers(Ref->getDecl(), /*Pointee=*/true);
  for (const Stmt *Child : E->children())
    if (Child && pointsToOthers(Child))
      return true;
  return false;
}

/// Whether \p T, or a type it is sugar for, carries an annotate_type
/// attribute; with \p Declared, only where a declaration wrote it, not
/// where the type was deduced or substituted (auto, decltype, a template
/// parameter), whose sugar may keep the annotation of what it came from.
bool SpawnRewriter::hasAnnotation(QualType T, bool Declared) const {
  while (!T.isNull()) {
    const Type *Sugar = T.getTypePtr();
    if (Declared && isa<AutoType, DecltypeType, TypeOfExprType, TypeOfType,
                        SubstTemplateTypeParmType>(Sugar))
      return false;
    if (const auto *A = dyn_cast<AttributedType>(Sugar);
        A && A->getAttrKind() == attr::AnnotateType)
      return true;
    QualType Next = T.getSingleStepDesugaredType(Ctx);
    if (Next == T)
      return false;
    T = Next;
  }
  return false;
}

bool SpawnRewriter::isReducerType(QualType T) const {
  return hasAnnotation(T, /*Declared=*/false);
}

bool SpawnRewriter::isReducerPointer(QualType T) const {
  const auto *P = T->getAs<PointerType>();
  return P && isReducerType(P->getPointeeType());
}

/// A reference declared to a reducer type, as written or through typedefs
/// and alias templates. A reference whose type was deduced from a reducer
/// (`auto &&r = x;`, a range loop's hidden `__range`, `U &` with U deduced
/// from x) keeps the annotation in its sugar but is bound to the strand's
/// view, like any reference to the variable.
bool SpawnRewriter::isReducerReference(QualType T) const {
  return T->isReferenceType() &&
         hasAnnotation(T.getNonReferenceType(), /*Declared=*/true);
}

/// The alias template specialization's arguments as written, then the
/// defaults of the parameters they leave out (`Traits` of
/// `ostream_reducer<char>`).
static SmallVector<TemplateArgument, 4> withDefaults(Sema &S,
                                                     const ReducerAnnotation &Site) {
  SmallVector<TemplateArgument, 4> Args(Site.Args.begin(), Site.Args.end());
  TemplateParameterList *Params = Site.Alias->getTemplateParameters();
  SourceLocation Loc = Site.Alias->getLocation();
  for (unsigned I = Args.size(); I < Params->size(); ++I) {
    bool HasDefault = false;
    TemplateArgumentLoc Default = compat::defaultTemplateArgument(
        S, Site.Alias, Loc, Params->getParam(I), Args, HasDefault);
    if (!HasDefault || Default.getArgument().isNull())
      break;
    Args.push_back(Default.getArgument());
  }
  return Args;
}

/// The function that the annotation's argument \p Arg names, as the
/// declaration reaches it through \p Site: where Arg depends on the
/// parameters of the alias template it was written in
/// (`template <class T> using sum = T cilk_reducer(zero<T>, plus<T>)`),
/// Arg instantiated with the specialization's arguments (`zero<long>`),
/// which also has Sema instantiate the function. Null if Arg names none.
FunctionDecl *SpawnRewriter::annotatedFunction(Expr *Arg,
                                               const ReducerAnnotation &Site) const {
  // A class template's own static member (`identity` in its member's
  // `View cilk_reducer(identity, reduce) m;`) is named as the pattern's,
  // which needs its instantiation's like a dependent name.
  FunctionDecl *Named = namedFunction(Arg);
  if (Named && !Named->isDependentContext())
    return Named;
  if (!(Site.Alias || Site.Instantiation) || !SemaRef ||
      !(Arg->isValueDependent() || Named))
    return nullptr;
  const void *Where = Site.Alias ? static_cast<const void *>(Site.Specialization)
                                 : Site.Instantiation;
  auto Key = std::make_pair(static_cast<const Expr *>(Arg), Where);
  if (auto It = Instantiated.find(Key); It != Instantiated.end())
    return It->second;
  Sema &S = *SemaRef;
  FunctionDecl *F = nullptr;
  auto substitute = [&](const MultiLevelTemplateArgumentList &Levels) {
    ExprResult R = S.SubstExpr(Arg, Levels);
    return R.isUsable() ? namedFunction(R.get()) : nullptr;
  };
  if (Site.Alias) {
    SmallVector<TemplateArgument, 4> Args = withDefaults(S, Site);
    Sema::InstantiatingTemplate Inst(S, Arg->getExprLoc(), Site.Alias, Args);
    if (!Inst.isInvalid())
      F = substitute(MultiLevelTemplateArgumentList(Site.Alias, Args,
                                                    /*Final=*/false));
  } else if (const auto *Class = dyn_cast<CXXRecordDecl>(Site.Instantiation)) {
    // A data member's: the class's arguments, and those of the templates
    // around it.
    // Sema finds the class's own members' instantiations from the
    // context it is in.
    auto *Instance = const_cast<CXXRecordDecl *>(Class);
    Sema::ContextRAII InClass(S, Instance);
    Sema::InstantiatingTemplate Inst(S, Arg->getExprLoc(), Instance);
    if (!Inst.isInvalid())
      F = substitute(S.getTemplateInstantiationArgs(Class));
  } else {
    auto *FD = cast<FunctionDecl>(const_cast<Decl *>(Site.Instantiation));
    Sema::InstantiatingTemplate Inst(S, Arg->getExprLoc(), FD);
    if (!Inst.isInvalid())
      F = substitute(S.getTemplateInstantiationArgs(
          FD, FD->getLexicalDeclContext(), /*Final=*/false, std::nullopt,
          /*RelativeToPrimary=*/true));
  }
  Instantiated[Key] = F;
  return F;
}

/// I and R of the annotation \p Site; an error at the annotation (once,
/// however many uses) if they are not functions of the right shape.
std::optional<SpawnRewriter::ReducerMonoid>
SpawnRewriter::reducerMonoid(const ReducerAnnotation &Site) {
  const AnnotateTypeAttr *A = Site.Attr;
  SourceLocation Use = fileLoc(A->getLocation());
  if (A->args_size() != 2) {
    error(Use, "cilk_reducer takes two functions: the identity and the "
               "reduce ('T cilk_reducer(identity, reduce)')");
    return std::nullopt;
  }
  Expr **Args = A->args_begin();
  FunctionDecl *Identity = annotatedFunction(Args[0], Site);
  FunctionDecl *Reduce = annotatedFunction(Args[1], Site);
  if (!Identity || !Reduce) {
    error(Use, "the identity and the reduce of a cilk_reducer must each name "
               "a function, or a function template's specialization (not "
               "an expression)");
    return std::nullopt;
  }
  if (!isCallback(Identity, 1) || !isCallback(Reduce, 2)) {
    error(Use, "a cilk_reducer's identity must be 'void identity(void *view)' "
               "and its reduce 'void reduce(void *left, void *right)'");
    return std::nullopt;
  }
  return ReducerMonoid{Identity, Reduce};
}

std::optional<SpawnRewriter::ReducerMonoid>
SpawnRewriter::pointeeMonoid(const Expr *Pointer, SourceLocation Use) {
  const VarDecl *Var = referencedVar(Pointer);
  ReducerAnnotation Site = reducerPointeeAnnotation(Var);
  if (!Site) {
    error(Use, "a reducer can be reached only through a variable or "
               "parameter declared 'T cilk_reducer(identity, reduce) *p', as "
               "'*p' or 'p->m'");
    return std::nullopt;
  }
  return reducerMonoid(Site);
}

bool SpawnRewriter::mentionsReducer(const Stmt *S) const {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && isReducerType(Var->getType()) &&
        !annotatedForOthers(Var, /*Pointee=*/false))
      return true;
  for (const Stmt *Child : S->children())
    if (Child && mentionsReducer(Child))
      return true;
  return false;
}

/// Whether each use of \p Var is rewritten to a lookup where the walk
/// meets it: a reducer variable that is not reported at its declaration
/// or at its annotation instead.
bool SpawnRewriter::rewritableReducer(const VarDecl *Var) const {
  if (Var && isReducerReference(Var->getType())) {
    ReducerAnnotation Site = reducerReferenceAnnotation(Var);
    if (!Site)
      return false; // bound to a view: deduced, not declared, a reducer's
    return !Var->getType().getNonReferenceType()->isIncompleteType() &&
           hasCallbacks(Site);
  }
  if (!Var || isa<ParmVarDecl>(Var) || !isReducerType(Var->getType()))
    return false;
  ReducerAnnotation Site = reducerAnnotation(Var);
  if (!Site || Var->getType()->isIncompleteType())
    return false;
  return hasCallbacks(Site);
}

/// Whether the annotation \p Site names an identity and a reduce of the
/// callbacks' shapes.
bool SpawnRewriter::hasCallbacks(const ReducerAnnotation &Site) const {
  if (Site.Attr->args_size() != 2)
    return false;
  FunctionDecl *Identity = annotatedFunction(Site.Attr->args_begin()[0], Site);
  FunctionDecl *Reduce = annotatedFunction(Site.Attr->args_begin()[1], Site);
  return Identity && Reduce && isCallback(Identity, 1) && isCallback(Reduce, 2);
}

/// Whether `*Pointer` and `Pointer->m` are rewritten where the walk meets
/// them (not reported as another form instead).
bool SpawnRewriter::rewritableDeref(const Expr *Pointer) const {
  if (!isReducerPointer(Pointer->getType()) || pointsToOthers(Pointer))
    return false;
  const VarDecl *Var = referencedVar(Pointer);
  ReducerAnnotation Site = reducerPointeeAnnotation(Var);
  if (!Site || Pointer->getType()->getPointeeType()->isIncompleteType())
    return false;
  return hasCallbacks(Site);
}

bool SpawnRewriter::completeReducerType(QualType T, SourceLocation Use) {
  if (!T->isIncompleteType())
    return true;
  error(Use, "a reducer's type must be complete where it is used");
  return false;
}

void SpawnRewriter::checkReducerCaptures(const LambdaExpr *Lambda) {
  for (const LambdaCapture &C : Lambda->captures())
    if (C.capturesVariable() && C.getCaptureKind() == LCK_ByCopy)
      if (const auto *Var = dyn_cast<VarDecl>(C.getCapturedVar());
          Var && isReducerType(Var->getType()) &&
          !annotatedForOthers(Var, /*Pointee=*/false))
        error(C.getLocation(),
              "a reducer cannot be captured by copy: capture it by "
              "reference");
}

void SpawnRewriter::noteReducerMember(const FieldDecl *F) {
  if (!Ctx.getLangOpts().CPlusPlus) {
    error(F->getLocation(),
          "in C, a struct member cannot be a reducer (cilk_reducer): no "
          "constructor registers it; declare the reducer as a variable and "
          "keep a reducer pointer in the struct "
          "('T cilk_reducer(identity, reduce) *p')");
    return;
  }
  SawReducer = SawReducerMember = true;
}

void SpawnRewriter::checkReducerTemplateArgument(
    const TemplateArgumentLoc &Arg) {
  if (Arg.getArgument().getKind() != TemplateArgument::Type)
    return;
  const TypeSourceInfo *TSI = Arg.getTypeSourceInfo();
  if (!TSI || !reducerAttr(TSI->getTypeLoc()))
    return;
  error(Arg.getLocation(),
        "a reducer type (cilk_reducer) cannot be a template argument: the "
        "template's uses of it would not get the calling strand's view; "
        "declare the reducer as a variable and pass a pointer to it");
}

void SpawnRewriter::checkReducerDeclaration(const DeclaratorDecl *D) {
  QualType T = D->getType();
  if (T.isNull())
    return;
  // A reducer data member (ReducerMembers.cpp), checked with its class
  // once the translation unit is complete, a class template's in each
  // instantiation (its type may depend on a parameter:
  // `View cilk_reducer(I, R) leftmost;`).
  if (const auto *F = dyn_cast<FieldDecl>(D); F && reducerAttr(writtenType(F)))
    return noteReducerMember(F);
  if (T->isDependentType())
    return;
  if (const auto *P = dyn_cast<ParmVarDecl>(D))
    rewriteDefaultArgument(const_cast<ParmVarDecl *>(P));
  SourceLocation Loc = D->getLocation();
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    FunctionTypeLoc FTL = FD->getFunctionTypeLoc();
    if (isReducerType(FD->getReturnType().getNonReferenceType()) &&
        !(FTL && otherAnnotation(FTL.getReturnLoc(), /*Pointee=*/false)))
      error(Loc, "a function cannot return a reducer (cilk_reducer): "
                 "return its value, or take a pointer to the reducer");
    return;
  }
  if (isReducerType(T.getNonReferenceType()) || isReducerPointer(T))
    SawReducer = true;
  QualType Element = T.getNonReferenceType();
  while (const ArrayType *AT = Ctx.getAsArrayType(Element))
    Element = AT->getElementType();
  if (!isReducerType(Element) || annotatedForOthers(D, /*Pointee=*/false))
    return;
  if (isa<FieldDecl>(D)) {
    if (Element != T)
      error(Loc, "an array of reducers (cilk_reducer) is not supported");
    return; // declared through a typedef: reported at its uses
  }
  if (T->isReferenceType()) {
    // Bound to the reducer itself, as a reducer pointer points to it.
    if (Element == T.getNonReferenceType() && isa<VarDecl>(D) &&
        reducerReferenceAnnotation(cast<VarDecl>(D)))
      return;
    error(Loc, "this reference to a reducer (cilk_reducer) is not "
               "supported: declare it 'T cilk_reducer(identity, reduce) &r' "
               "(or through a typedef or alias template of that type), or "
               "use a pointer");
    return;
  }
  if (Element != T) {
    error(Loc, "an array of reducers (cilk_reducer) is not supported");
    return;
  }
  if (isa<ParmVarDecl>(D)) {
    error(Loc, "a parameter cannot be a reducer (cilk_reducer) by value: "
               "pass a pointer ('T cilk_reducer(identity, reduce) *p')");
    return;
  }
  const auto *Var = dyn_cast<VarDecl>(D);
  if (!Var)
    return;
  if (Var->getTLSKind() != VarDecl::TLS_None) {
    error(Loc, "a thread-local reducer (cilk_reducer) is not supported");
    return;
  }
  if (!reducerAttr(writtenType(Var)))
    error(Loc, "this variable's type is a cilk_reducer, but its identity and "
               "reduce are found only where 'cilk_reducer(identity, reduce)' "
               "is written in the declaration or in a typedef it names");
}

} // namespace weft
