//===- ReducerMembers.cpp - Reducer data members: registered with the object ===//
//
// A data member whose type is written `T cilk_reducer(I, R)` is a reducer
// for as long as its object lives, as in OpenCilk. Its uses become lookups
// like a variable's (ReducerUses.cpp: `obj.m`, `p->m` and, in a member
// function, `m`), keyed by the member's address. Where a local reducer is
// registered at its declaration (registerLocalReducers), a member is
// registered by each constructor of its class and unregistered by the
// destructor:
//
//   struct S {                       struct S {
//     S(long v) : sum(v) { f(); }      S(long v) : sum(v) {
//                                        __weft_hyper_register(&this->sum,
//                                              sizeof(long), alignof(long), I, R);
//                                        f();          // sum: a lookup
//                                      }
//     ~S() { g(); }           ==>      ~S() {
//                                        void *__weft_reducer_key
//                                          __attribute__((cleanup(__weft_hyper_unregister)))
//                                          = &this->sum;
//                                        g();
//                                      }    // unregistered, then sum destroyed
//     long cilk_reducer(I, R) sum;     long cilk_reducer(I, R) sum;
//   };                               };
//
// so an object made on a strand other than the leftmost has its own
// storage as that strand's view (runtime/hyper.cpp), as a local does.
// Constructors and destructors that Sema defines (implicit, defaulted, and
// those of class template instantiations) get the same, once the
// translation unit is complete and before CodeGen emits them
// (finishReducerMembers). In a constructor's member initialisers the
// object's own members are not looked up: the object is being made on
// this strand, so its storage is this strand's view, and it is not yet
// registered.
//
// What no code of the class runs for cannot register or unregister a
// member, so it is an error where it is written (ReducerGuard.cpp, and
// checkReducerClass below): a class with reducer members whose destructor
// is trivial; a union member; making or assigning an object whose class
// (or a member's or base's class) has reducer members by a trivial
// constructor or assignment, or by aggregate initialisation; and in C,
// which has no constructors, any struct member.
//
//===----------------------------------------------------------------------===//

#include "frontend/ReducerTypes.h"
#include "frontend/SpawnRewriter.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace weft {

/// Whether \p F is declared a reducer (`T cilk_reducer(I, R) m;`).
bool SpawnRewriter::isReducerMember(const FieldDecl *F) const {
  return F && isReducerType(F->getType()) && reducerAttr(writtenType(F));
}

const FieldDecl *SpawnRewriter::reducerField(const MemberExpr *ME) const {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!isReducerMember(F) || F->getParent()->isUnion() ||
      !Ctx.getLangOpts().CPlusPlus)
    return nullptr;
  return F;
}

bool SpawnRewriter::rewritableMember(const MemberExpr *ME) const {
  const FieldDecl *F = reducerField(ME);
  return F && !ME->getType()->isIncompleteType() &&
         hasCallbacks(reducerAnnotation(F));
}

/// The reducer members of \p Class, in declaration order, with their
/// monoids; a member whose annotation is in error is left out (reported
/// at its uses).
SmallVector<std::pair<FieldDecl *, SpawnRewriter::ReducerMonoid>, 2>
SpawnRewriter::reducerMembers(const CXXRecordDecl *Class) {
  SmallVector<std::pair<FieldDecl *, ReducerMonoid>, 2> Members;
  if (!Class->hasDefinition() || Class->isUnion())
    return Members;
  for (FieldDecl *F : Class->fields()) {
    if (!isReducerMember(F) || F->getType()->isIncompleteType())
      continue;
    if (std::optional<ReducerMonoid> M = reducerMonoid(reducerAnnotation(F)))
      Members.push_back({F, *M});
  }
  return Members;
}

/// Whether making or assigning a \p T runs code of a class with reducer
/// members: one of its own, or of a member's, an element's or a base's.
bool SpawnRewriter::containsReducerMembers(QualType T) {
  while (const ArrayType *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType();
  const auto *Class = T->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition() || Class->isDependentContext())
    return false;
  Class = Class->getDefinition();
  if (auto It = ClassesWithReducers.find(Class);
      It != ClassesWithReducers.end())
    return It->second;
  ClassesWithReducers[Class] = false; // a cycle through a pointer is none
  bool Contains = false;
  for (const FieldDecl *F : Class->fields())
    if (isReducerMember(F) || containsReducerMembers(F->getType()))
      Contains = true;
  for (const CXXBaseSpecifier &Base : Class->bases())
    if (containsReducerMembers(Base.getType()))
      Contains = true;
  ClassesWithReducers[Class] = Contains;
  return Contains;
}

/// `&this->F`, in \p Method of F's class: the reducer itself, a key.
Expr *SpawnRewriter::memberOfThis(CXXMethodDecl *Method, FieldDecl *F,
                                  SourceLocation Loc) {
  auto *This = CXXThisExpr::Create(Ctx, Loc, Method->getThisType(),
                                   /*IsImplicit=*/true);
  auto *ME = MemberExpr::Create(
      Ctx, This, /*IsArrow=*/true, Loc, NestedNameSpecifierLoc(),
      SourceLocation(), F, DeclAccessPair::make(F, F->getAccess()),
      DeclarationNameInfo(F->getDeclName(), Loc), nullptr, F->getType(),
      VK_LValue, OK_Ordinary, NOUR_None);
  Expr *Key = addressOf(ME);
  ReducerKeys.insert(Key);
  return Key;
}

/// \p Stmts, then the statements of \p Block, as one block in its place.
static CompoundStmt *prepend(ASTContext &Ctx, ArrayRef<Stmt *> Stmts,
                             CompoundStmt *Block) {
  SmallVector<Stmt *, 8> All(Stmts.begin(), Stmts.end());
  All.append(Block->body_begin(), Block->body_end());
  FPOptionsOverride FPO = Block->hasStoredFPFeatures()
                              ? Block->getStoredFPFeatures()
                              : FPOptionsOverride();
  return CompoundStmt::Create(Ctx, All, FPO, Block->getLBracLoc(),
                              Block->getRBracLoc());
}

/// Registers the reducer members of \p Method's class at the start of a
/// constructor's body (after the member initialisers have made them) and
/// unregisters them when a destructor's body ends (before they are
/// destroyed). A delegating constructor leaves it to its target.
void SpawnRewriter::addReducerLifetimes(CXXMethodDecl *Method) {
  auto *Ctor = dyn_cast<CXXConstructorDecl>(Method);
  auto *Dtor = dyn_cast<CXXDestructorDecl>(Method);
  if (!(Ctor || Dtor) || Method->isDependentContext() ||
      (Ctor && Ctor->isDelegatingConstructor()))
    return;
  auto Members = reducerMembers(Method->getParent());
  if (Members.empty())
    return;
  Stmt *Body = Method->getBody();
  // A function-try-block's handlers also see the members registered.
  auto *Try = dyn_cast_or_null<CXXTryStmt>(Body);
  auto *Block = dyn_cast_or_null<CompoundStmt>(Try ? Try->getTryBlock() : Body);
  if (!Block)
    return;
  makeReducerFunctions();
  SourceLocation Loc = Block->getLBracLoc();
  SmallVector<Stmt *, 2> Added;
  for (auto &[F, M] : Members) {
    QualType T = F->getType().getCanonicalType();
    Expr *Key = memberOfThis(Method, F, Loc);
    if (Ctor) {
      Added.push_back(hyperCall(HyperRegister, Key, T, M, Loc));
      continue;
    }
    // The companion whose cleanup unregisters, as for a local reducer.
    VarDecl *Companion = unregisteringKey(
        Method,
        ImplicitCastExpr::Create(Ctx, Ctx.VoidPtrTy, CK_BitCast, Key, nullptr,
                                 VK_PRValue, FPOptionsOverride()),
        Loc);
    Added.push_back(new (Ctx) DeclStmt(DeclGroupRef(Companion), Loc, Loc));
  }
  CompoundStmt *NewBlock = prepend(Ctx, Added, Block);
  if (Try)
    *Try->children().begin() = NewBlock;
  else
    Method->setBody(NewBlock);
}

/// Walks the expressions of \p Ctor's member and base initialisers, where
/// its own members are not looked up (the file's comment says why).
void SpawnRewriter::walkConstructorInits(CXXConstructorDecl *Ctor,
                                         bool Dependent) {
  for (CXXCtorInitializer *Init : Ctor->inits()) {
    Expr *E = Init->getInit();
    if (!E || Init->isInClassMemberInitializer())
      continue;
    BodyWalk Walk(Ctor, Dependent, E);
    Walk.ConstructorInits = true;
    Stmt *S = E;
    walk(S, Walk);
    // The initialiser's root itself is never a reducer use: the member
    // initialised, or a lookup's operand, is below it.
  }
}

/// The errors at a class's reducer members that no code of the class
/// would register or unregister.
void SpawnRewriter::checkReducerClass(const CXXRecordDecl *Class) {
  for (const FieldDecl *F : Class->fields()) {
    if (!isReducerMember(F))
      continue;
    std::string Name = Class->getNameAsString();
    if (Class->isUnion())
      error(F->getLocation(),
            "a union member cannot be a reducer (cilk_reducer): no "
            "constructor or destructor of a union registers it");
    else if (Class->hasTrivialDestructor())
      error(F->getLocation(),
            "reducer member '" + F->getName().str() + "' needs a destructor "
            "in '" + Name + "' to be unregistered when an object dies, and '" +
            Name + "' has a trivial one: declare it ('~" + Name + "() {}')");
  }
}

namespace {

/// Finds, once the translation unit is complete, the classes with reducer
/// members and the member functions Sema defined for them.
class ReducerClassFinder : public RecursiveASTVisitor<ReducerClassFinder> {
public:
  explicit ReducerClassFinder(SpawnRewriter &R) : R(R) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCXXRecordDecl(CXXRecordDecl *Class) {
    if (Class->isThisDeclarationADefinition() && !Class->isDependentContext())
      Classes.push_back(Class);
    return true;
  }
  SmallVector<CXXRecordDecl *, 16> Classes;

private:
  SpawnRewriter &R;
};

} // namespace

void SpawnRewriter::finishReducerMembers(TranslationUnitDecl *TU) {
  if (!SawReducerMember)
    return;
  ReducerClassFinder Finder(*this);
  Finder.TraverseDecl(TU);
  for (CXXRecordDecl *Class : Finder.Classes) {
    bool Has = llvm::any_of(Class->fields(), [&](const FieldDecl *F) {
      return isReducerMember(F);
    });
    if (!Has)
      continue;
    checkReducerClass(Class);
    // Implicit, defaulted and instantiated members Sema has defined since
    // the class was walked (rewriteBody walks each function once).
    for (Decl *D : Class->decls()) {
      if (auto *Method = dyn_cast<CXXMethodDecl>(D);
          Method && Method->doesThisDeclarationHaveABody())
        rewriteBody(Method);
      if (auto *Template = dyn_cast<FunctionTemplateDecl>(D))
        for (FunctionDecl *Spec : Template->specializations())
          if (Spec->doesThisDeclarationHaveABody())
            rewriteBody(Spec);
    }
  }
}

} // namespace weft
