//===- SpawnStatements.cpp - Spawning a statement that is not a call ------===//
//
// OpenCilk spawns any statement: the statement is the child, and the rest
// of the function up to the sync is the continuation. Weft's lowering
// spawns calls, so the front end moves such a statement into a function of
// its own and spawns a call to it. Each local variable (or structured
// binding) of the enclosing function that the statement names is passed
// by address, and `this` by value, so the child reads and writes the
// parent's variables themselves, as OpenCilk's child does:
//
//   cilk_spawn { a[i] = f(i); n++; }        cilk_spawn __weft_spawned_0(&a, &i, &n);
//   cilk_spawn x[0]++;              ==>     cilk_spawn __weft_spawned_1(&x);
//
//   static void __weft_spawned_0(int (*a)[8], int *i, long *n) {
//     (*a)[(*i)] = f((*i)); (*n)++;
//   }
//
// A variable-length array of the function (`long x[n]`, `double m[n][4]`)
// is passed as its length and its address; the parameter's type names the
// length parameter, so that indexing and `sizeof` see the length the array
// was declared with:
//
//   cilk_spawn { x[0] = sizeof x; }   ==>   cilk_spawn __weft_spawned_2(
//                                             sizeof x / sizeof(long), &x);
//   static void __weft_spawned_2(size_t __weft_length_x,
//                                long (*x)[__weft_length_x]) {
//     (*x)[0] = sizeof (*x);
//   }
//
// The function is static and defined at file scope; the statement's own
// declarations are its locals (so a spawn of it in a loop gets fresh ones
// each time), its spawns sync at its end, and an exception from it leaves
// the spawned call like any child's. CodeGen is handed the function when
// it is made (the plugin's consumer passes it on, SpawnRewriter's
// EmitDecl), and emits it where the spawn uses it.
//
// What cannot move into a function of its own is an error at the spawn: a
// return, a goto, a label, a break or continue that leaves the statement,
// a static or thread-local variable declared in it, a block (a lambda in
// it captures from the parameters), a bit-field binding or a variably
// modified variable other than such an array (a pointer to one, an array
// with a variable inner dimension) named in it, and a coroutine's await or
// return.
//
//===----------------------------------------------------------------------===//

#include "frontend/ClangCompat.h"
#include "frontend/SpawnRewriter.h"
#include "frontend/StripImplicit.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/MapVector.h"

using namespace clang;

namespace weft {
namespace {

/// What the statement needs from its function, and what keeps it there.
struct Outline {
  // The variables named, in order of first use, with that use.
  llvm::MapVector<ValueDecl *, const DeclRefExpr *> Captured;
  // Those the statement uses other than by reading their value (writes,
  // addresses, references, arrays): passed by address.
  llvm::SmallPtrSet<const ValueDecl *, 8> Shared;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Reads; // uses that only read
  SmallVector<const Stmt *, 8> Replaced; // the uses and `this` to replace
  llvm::SmallPtrSet<const Decl *, 8> Inner; // declared in the statement
  QualType ThisType;                     // null: `this` is not used
  std::string Problem;                   // why it cannot move, if it cannot
};

/// Whether \p D is a variable or binding of the function being walked,
/// declared outside the statement.
bool isEnclosingLocal(const ValueDecl *D, const Outline &O) {
  if (O.Inner.count(D))
    return false;
  if (const auto *Var = dyn_cast<VarDecl>(D))
    return Var->hasLocalStorage();
  return isa<BindingDecl>(D) && D->getDeclContext()->isFunctionOrMethod();
}

/// The variable-length array type of \p D, if only its first dimension is
/// variable (`long x[n]`, `double m[n][4]`): such an array is passed as a
/// pointer to an array of the length it has in the parent, which the
/// spawned function's parameter type gets from a parameter of its own.
const VariableArrayType *outerVariableArray(const ValueDecl *D) {
  const auto *VLA =
      dyn_cast_or_null<VariableArrayType>(D->getType()->getAsArrayTypeUnsafe());
  if (!VLA || VLA->getElementType()->isVariablyModifiedType())
    return nullptr;
  return VLA;
}

/// Collects what \p S uses, and notes the first construct that cannot
/// move into a function; \p Loops counts loops and switches inside \p S.
void survey(const Stmt *S, Outline &O, unsigned Loops) {
  if (!S || !O.Problem.empty())
    return;
  if (isa<ReturnStmt, CoreturnStmt>(S))
    O.Problem = "return";
  else if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(S))
    O.Problem = "goto or label";
  else if (isa<CoawaitExpr, CoyieldExpr, DependentCoawaitExpr>(S))
    O.Problem = "co_await or co_yield";
  else if (isa<BreakStmt, ContinueStmt>(S) && Loops == 0)
    O.Problem = "break or continue that leaves it";
  if (!O.Problem.empty())
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls()) {
      O.Inner.insert(D);
      if (const auto *Decomp = dyn_cast<DecompositionDecl>(D))
        for (const BindingDecl *B : Decomp->bindings())
          O.Inner.insert(B);
      if (const auto *Var = dyn_cast<VarDecl>(D);
          Var && (Var->isStaticLocal() || Var->getTLSKind()))
        O.Problem = "static or thread_local variable";
    }
  if (const auto *Catch = dyn_cast<CXXCatchStmt>(S))
    if (const VarDecl *Var = Catch->getExceptionDecl())
      O.Inner.insert(Var);
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
    // Its hidden variables are declared in it.
    for (const Stmt *Hidden : {Range->getRangeStmt(), Range->getBeginStmt(),
                               Range->getEndStmt(), Range->getLoopVarStmt()})
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(Hidden))
        for (const Decl *D : DS->decls())
          O.Inner.insert(D);
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // Its captures are initialised here, from the variables (and `this`)
    // the statement is given; its body is a function of its own.
    for (const Expr *Init : Lambda->capture_inits())
      survey(Init, O, Loops);
    return;
  }
  if (isa<BlockExpr>(S))
    O.Problem = "block";
  if (const auto *This = dyn_cast<CXXThisExpr>(S)) {
    O.ThisType = This->getType();
    O.Replaced.push_back(This);
  }
  if (const auto *Read = dyn_cast<ImplicitCastExpr>(S);
      Read && Read->getCastKind() == CK_LValueToRValue)
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(Read->getSubExpr()->IgnoreParens()))
      O.Reads.insert(Ref);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    auto *D = const_cast<ValueDecl *>(Ref->getDecl());
    if (!O.Reads.count(Ref))
      O.Shared.insert(D);
    if (isEnclosingLocal(D, O)) {
      if (D->getType()->isVariablyModifiedType() && !outerVariableArray(D))
        O.Problem = "variably modified type other than an array whose "
                    "first dimension alone is variable";
      else if (const auto *B = dyn_cast<BindingDecl>(D);
               B && B->getBinding() && B->getBinding()->refersToBitField())
        O.Problem = "bit-field binding";
      else {
        O.Captured.insert({D, Ref});
        O.Replaced.push_back(Ref);
      }
    }
  }
  unsigned Inside = Loops + isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt,
                                SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    survey(Child, O, Inside);
}

/// Whether \p D is passed by value: a scalar the statement only reads.
/// The child then sees the value it had at the spawn, as the serial
/// elision does, even if the continuation goes on to change it (the loop
/// variable of a loop that spawns statements); a variable it writes or
/// takes the address of is the parent's own.
bool byValue(const ValueDecl *D, const DeclRefExpr *Use, const Outline &O) {
  QualType T = Use->getType();
  return !O.Shared.count(D) && (T->isScalarType() || T->isVectorType()) &&
         !T.isVolatileQualified();
}

} // namespace

/// Whether \p S, marked as spawned at its start, is a statement the spawn
/// machinery cannot spawn as it is: anything but a call (or an assignment
/// of one) and a declaration initialised by one.
bool SpawnRewriter::isSpawnedStatement(const Stmt *S) const {
  if (isa<DeclStmt, NullStmt>(S))
    return false;
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return true;
  const Expr *Inner = stripImplicit(E);
  if (const auto *Assign = dyn_cast<BinaryOperator>(Inner);
      Assign && Assign->getOpcode() == BO_Assign)
    Inner = stripImplicit(Assign->getRHS());
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(Inner);
      Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2)
    Inner = stripImplicit(Assign->getArg(1));
  const auto *CE = dyn_cast<CallExpr>(Inner);
  return !CE || isCompilerBuiltinCall(CE);
}

/// `(*P)`, the lvalue that a pointer parameter \p P points to.
static Expr *pointee(ASTContext &Ctx, ParmVarDecl *P, SourceLocation Loc) {
  auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                  SourceLocation(), P, false, Loc,
                                  P->getType(), VK_LValue);
  auto *Load = ImplicitCastExpr::Create(Ctx, P->getType(), CK_LValueToRValue,
                                        Ref, nullptr, VK_PRValue,
                                        FPOptionsOverride());
  QualType T = P->getType()->getPointeeType();
  auto *Deref = UnaryOperator::Create(Ctx, Load, UO_Deref, T, VK_LValue,
                                      OK_Ordinary, Loc, false,
                                      FPOptionsOverride());
  return new (Ctx) ParenExpr(Loc, Loc, Deref);
}

/// `sizeof Array / sizeof *Array`, the length of the variable-length array
/// \p Array names. Its operand is the array, not its type: `sizeof` of the
/// type would evaluate the length's expression again (`n`, which may have
/// changed since), where the array's is the one it was declared with.
static Expr *arrayLength(ASTContext &Ctx, Expr *Array, SourceLocation Loc) {
  QualType Size = Ctx.getSizeType();
  auto *Bytes = new (Ctx)
      UnaryExprOrTypeTraitExpr(UETT_SizeOf, Array, Size, Loc, Loc);
  QualType Element = Ctx.getAsArrayType(Array->getType())->getElementType();
  auto *ElementBytes = IntegerLiteral::Create(
      Ctx,
      llvm::APInt(Ctx.getTypeSize(Size),
                  Ctx.getTypeSizeInChars(Element).getQuantity()),
      Size, Loc);
  return BinaryOperator::Create(Ctx, Bytes, ElementBytes, BO_Div, Size,
                                VK_PRValue, OK_Ordinary, Loc,
                                FPOptionsOverride());
}

/// \p Array's type with its variable length replaced by the value of
/// \p Length, a parameter of the spawned function, for the parameter that
/// points to it there.
static QualType lengthArrayType(ASTContext &Ctx, QualType Array,
                                ParmVarDecl *Length, SourceLocation Loc) {
  auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                  SourceLocation(), Length, false, Loc,
                                  Length->getType(), VK_LValue);
  auto *Value = ImplicitCastExpr::Create(Ctx, Length->getType(),
                                         CK_LValueToRValue, Ref, nullptr,
                                         VK_PRValue, FPOptionsOverride());
  QualType Element = Ctx.getAsArrayType(Array)->getElementType();
  return compat::variableArrayType(Ctx, Element, Value, Loc);
}

/// A captured variable's parameter, and whether it holds the value or
/// the address.
struct Passed {
  ParmVarDecl *Param = nullptr;
  bool ByValue = false;
};

/// Replaces, in \p S, each use of a captured variable with its parameter
/// (passed by value) or its parameter's pointee (by address), and `this`
/// with its parameter.
static void redirect(ASTContext &Ctx, Stmt *&S,
                     const llvm::DenseMap<const ValueDecl *, Passed> &To,
                     ParmVarDecl *This) {
  if (!S)
    return;
  if (auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    Passed P = To.lookup(Ref->getDecl());
    if (P.Param && P.ByValue)
      S = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                              P.Param, false, Ref->getLocation(),
                              P.Param->getType(), VK_LValue);
    else if (P.Param)
      S = pointee(Ctx, P.Param, Ref->getLocation());
    return;
  }
  if (auto *ThisExpr = dyn_cast<CXXThisExpr>(S); ThisExpr && This) {
    auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                    SourceLocation(), This, false,
                                    ThisExpr->getLocation(), This->getType(),
                                    VK_LValue);
    S = ImplicitCastExpr::Create(Ctx, This->getType(), CK_LValueToRValue, Ref,
                                 nullptr, VK_PRValue, FPOptionsOverride());
    return;
  }
  if (isa<LambdaExpr>(S)) {
    // Only its captures' initialisers are evaluated here.
    for (Expr *&Init : cast<LambdaExpr>(S)->capture_inits()) {
      Stmt *Slot = Init;
      redirect(Ctx, Slot, To, This);
      Init = cast_or_null<Expr>(Slot);
    }
    return;
  }
  for (Stmt *&Child : S->children())
    redirect(Ctx, Child, To, This);
}

/// Takes the spawn \p M as this walk's, handled without a call to spawn:
/// a template pattern's, or one in error (no warning about its syncs).
void SpawnRewriter::takeMark(Mark &M, BodyWalk &Walk) {
  Walk.Handled.insert(&M);
  M.Matched = true;
  if (!Walk.Spawns++)
    Walk.FirstSpawn = M.Written;
}

bool SpawnRewriter::outlineSpawnedStatement(Stmt *&S, BodyWalk &Walk) {
  if (!S)
    return false;
  Mark *M = spawnMark(S->getBeginLoc());
  // The mark stays where the statement began: in the new function, the
  // statement is no longer the one spawned.
  if (!M || Walk.Handled.count(M) || !isSpawnedStatement(S))
    return false;
  if (Walk.Dependent) {
    // A template's pattern spawns here; each instantiation moves its own.
    takeMark(*M, Walk);
    return false;
  }
  Expr *Call = outline(S, *M, Ctx.VoidTy, Walk);
  if (!Call)
    return true;
  S = Call;
  return false; // walked on as the call
}

/// Whether \p E, the value of a spawn that initialises a variable or is
/// assigned, is moved into a function of its own: a scalar or vector
/// value that is not a call (`x = cilk_spawn (T)f(a)`) or is a compiler
/// builtin's (`__m128i v = cilk_spawn _mm_i32gather_epi32(p, i, 4)`).
/// Its variables are passed as a spawned statement's are; its constants
/// (a builtin's immediate operand) stay where they are.
bool SpawnRewriter::outlineSpawnedExpression(Stmt *&S, Mark &M,
                                             BodyWalk &Walk) {
  auto *E = dyn_cast<Expr>(S);
  if (!E || Walk.Dependent || !E->isPRValue() ||
      !(E->getType()->isScalarType() || E->getType()->isVectorType()))
    return false;
  const Expr *Value = stripImplicit(E);
  const VarDecl *Var = Walk.VariableInits.lookup(Value);
  const Expr *Target = Walk.AssignedValues.lookup(Value);
  const auto *CE = dyn_cast<CallExpr>(Value);
  if (!(Var || Target) || (CE && !isCompilerBuiltinCall(CE)))
    return false;
  Expr *Call = outline(S, M, E->getType(), Walk);
  if (!Call)
    return true;
  if (Var)
    Walk.VariableInits[Call] = Var;
  if (Target)
    Walk.AssignedValues[Call] = Target;
  S = Call;
  return false;
}

/// Whether \p CE calls a compiler builtin that has no library function to
/// call instead, which cannot be called through a pointer.
bool SpawnRewriter::isCompilerBuiltinCall(const CallExpr *CE) const {
  unsigned Builtin = CE->getBuiltinCallee();
  return Builtin && !Ctx.BuiltinInfo.isPredefinedLibFunction(Builtin);
}

/// Moves \p S, spawned by \p M, into a new static function that returns
/// \p Result (the value of \p S, an expression, unless void), and returns
/// the call to it that takes its place; null after an error at the spawn.
Expr *SpawnRewriter::outline(Stmt *&S, Mark &M, QualType Result,
                             BodyWalk &Walk) {
  Outline O;
  survey(S, O, 0);
  // A reducer is the parent's, by address, and keeps its annotation.
  for (auto &[D, Use] : O.Captured)
    if (isReducerType(Use->getType()) || isReducerReference(D->getType()))
      O.Shared.insert(D);
  auto Fail = [&](const std::string &Msg) -> Expr * {
    takeMark(M, Walk);
    error(M.Written, Msg);
    return nullptr;
  };
  if (!O.Problem.empty())
    return Fail("a spawned statement cannot contain a " + O.Problem +
                ": it runs as a function of its own; spawn a call, or move "
                "that out of the statement");
  // In a template instantiation, the uses the function's parameters
  // replace must be its own, not the pattern's (PatternSharing.cpp).
  if (Walk.Shared)
    for (const Stmt *Use : O.Replaced)
      if (isShared(Use, Walk) && !ownPath(S, Use, Walk))
        return Fail("internal error: this spawned statement cannot be moved "
                    "in a template instantiation without changing the "
                    "template");
  SourceLocation Loc = S->getBeginLoc();

  // The function: a parameter per captured variable, each variable-length
  // array's preceded by its length, then this.
  SmallVector<QualType, 8> ParamTypes;
  SmallVector<TypeSourceInfo *, 8> ParamTypeInfos;
  SmallVector<ValueDecl *, 8> ParamVars; // null: `this`, or a length
  for (auto &[D, Use] : O.Captured) {
    if (outerVariableArray(D)) {
      ParamTypes.push_back(Ctx.getSizeType());
      ParamTypeInfos.push_back(Ctx.getTrivialTypeSourceInfo(Ctx.getSizeType()));
      ParamVars.push_back(nullptr);
      // The prototype's: `T (*)[]`; the parameter's own names the length.
      ParamTypes.push_back(Ctx.getPointerType(Ctx.getIncompleteArrayType(
          Ctx.getAsArrayType(Use->getType())->getElementType(),
          ArraySizeModifier::Normal, 0)));
      ParamTypeInfos.push_back(nullptr);
    } else {
      ParamTypes.push_back(byValue(D, Use, O)
                               ? Use->getType().getUnqualifiedType()
                               : Ctx.getPointerType(Use->getType()));
      ParamTypeInfos.push_back(parameterTypeInfo(D, ParamTypes.back(), Loc));
    }
    ParamVars.push_back(D);
  }
  if (!O.ThisType.isNull()) {
    ParamTypes.push_back(O.ThisType);
    ParamTypeInfos.push_back(Ctx.getTrivialTypeSourceInfo(O.ThisType));
    ParamVars.push_back(nullptr);
  }
  FunctionProtoType::ExtProtoInfo EPI;
  QualType FnType = Ctx.getFunctionType(Result.getUnqualifiedType(),
                                        ParamTypes, EPI);
  std::string Name = "__weft_spawned_" + std::to_string(SpawnedStatements++);
  auto *Fn = FunctionDecl::Create(
      Ctx, Ctx.getTranslationUnitDecl(), Loc, Loc,
      DeclarationName(&Ctx.Idents.get(Name)), FnType,
      Ctx.getTrivialTypeSourceInfo(FnType, Loc), SC_Static);
  Fn->setImplicit(true);
  SmallVector<ParmVarDecl *, 8> Params;
  llvm::DenseMap<const ValueDecl *, Passed> ParamOf;
  for (unsigned I = 0; I < ParamTypes.size(); ++I) {
    ValueDecl *Var = ParamVars[I];
    bool IsThis = !Var && I + 1 == ParamTypes.size() && !O.ThisType.isNull();
    bool IsLength = !Var && !IsThis;
    std::string Id = IsThis     ? "__this"
                     : IsLength ? ("__weft_length_" + ParamVars[I + 1]->getName()).str()
                                : Var->getName().str();
    QualType Type = ParamTypes[I];
    TypeSourceInfo *TSI = ParamTypeInfos[I];
    if (!TSI) { // a variable-length array, whose length is the last one
      Type = Ctx.getPointerType(
          lengthArrayType(Ctx, Var->getType(), Params.back(), Loc));
      TSI = Ctx.getTrivialTypeSourceInfo(Type, Loc);
    }
    auto *P = ParmVarDecl::Create(Ctx, Fn, Loc, Loc, &Ctx.Idents.get(Id),
                                  Type, TSI, SC_None, nullptr);
    P->setScopeInfo(0, I);
    Params.push_back(P);
    if (Var)
      ParamOf[Var] = {P, byValue(Var, O.Captured.lookup(Var), O)};
  }
  Fn->setParams(Params);
  Ctx.getTranslationUnitDecl()->addDecl(Fn); // the reducer guard's walk too

  // Its body: the statement (or `return` the expression), reading the
  // parent's variables through the parameters; declarations in it become
  // the function's.
  for (const Decl *D : O.Inner)
    if (isa<VarDecl>(D) && D->getDeclContext() == Walk.Function)
      const_cast<Decl *>(D)->setDeclContext(Fn);
  redirect(Ctx, S, ParamOf, O.ThisType.isNull() ? nullptr : Params.back());
  Stmt *Body = S;
  if (!Result->isVoidType())
    Body = ReturnStmt::Create(Ctx, Loc, cast<Expr>(S), nullptr);
  if (!isa<CompoundStmt>(Body))
    Body = CompoundStmt::Create(Ctx, {Body}, FPOptionsOverride(), Loc,
                                S->getEndLoc());
  Fn->setBody(Body);
  // Its own spawns, syncs and reducer uses; the statement's mark, which
  // is still at its start, is the parent's.
  SuppressedMarks.insert(&M);
  rewriteBody(Fn);
  SuppressedMarks.erase(&M);
  if (EmitDecl)
    EmitDecl(Fn);

  // The spawn: a call with the variables' values and addresses, where the
  // statement began, which the walk then spawns as any call.
  SmallVector<Expr *, 8> Args;
  for (auto &[D, Use] : O.Captured) {
    auto *Ref = DeclRefExpr::Create(
        Ctx, NestedNameSpecifierLoc(), SourceLocation(), D,
        Use->refersToEnclosingVariableOrCapture(), Loc, Use->getType(),
        VK_LValue);
    if (outerVariableArray(D)) {
      Args.push_back(arrayLength(Ctx, Ref, Loc));
      Args.push_back(ImplicitCastExpr::Create(
          Ctx, ParamTypes[Args.size()], CK_BitCast, addressOf(Ref), nullptr,
          VK_PRValue, FPOptionsOverride()));
    } else if (byValue(D, Use, O))
      Args.push_back(ImplicitCastExpr::Create(
          Ctx, Use->getType().getUnqualifiedType(), CK_LValueToRValue, Ref,
          nullptr, VK_PRValue, FPOptionsOverride()));
    else
      Args.push_back(addressOf(Ref));
  }
  if (!O.ThisType.isNull())
    Args.push_back(CXXThisExpr::Create(Ctx, Loc, O.ThisType, /*IsImplicit=*/true));
  return CallExpr::Create(Ctx, functionPointer(Fn, Loc), Args,
                          Result.getUnqualifiedType(), VK_PRValue, Loc,
                          FPOptionsOverride());
}

/// The type of the parameter that passes \p D, as written. A reducer's
/// pointer is written `T cilk_reducer(I, R) *`, with the annotation of
/// D's own declaration (a reference's referent), so that the function's
/// uses of it are lookups of the parent's reducer (ReducerUses.cpp).
TypeSourceInfo *SpawnRewriter::parameterTypeInfo(ValueDecl *D, QualType T,
                                                 SourceLocation Loc) {
  const auto *Var = dyn_cast<VarDecl>(D);
  const TypeSourceInfo *Declared = Var ? Var->getTypeSourceInfo() : nullptr;
  if (!Declared || !T->isPointerType() ||
      !(isReducerType(T->getPointeeType()) ||
        isReducerReference(Var->getType())))
    return Ctx.getTrivialTypeSourceInfo(T, Loc);
  // A reducer's pointer passed on by value (the parameter of an enclosing
  // spawned statement, for one nested in it) keeps its own declaration.
  if (Ctx.hasSameUnqualifiedType(T, Var->getType()))
    return const_cast<TypeSourceInfo *>(Declared);
  TypeLoc Written = Declared->getTypeLoc();
  if (auto Ref = Written.getAs<ReferenceTypeLoc>())
    Written = Ref.getPointeeLoc();
  QualType Pointer = Ctx.getPointerType(Written.getType());
  TypeSourceInfo *TSI = Ctx.CreateTypeSourceInfo(Pointer);
  auto PTL = TSI->getTypeLoc().castAs<PointerTypeLoc>();
  PTL.setStarLoc(Loc);
  PTL.getPointeeLoc().initializeFullCopy(Written);
  return TSI;
}

} // namespace weft
