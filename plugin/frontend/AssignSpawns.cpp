//===- AssignSpawns.cpp - `x = cilk_spawn f(a);` for a class x -------------===//
//
// OpenCilk runs `lhs = cilk_spawn f(a)` as one child: the call and the
// assignment, with the left side's address and the arguments evaluated in
// the parent. For scalars and trivially copyable classes Weft gets that
// from the spawn's window (SpawnWindow.cpp): the stores or the copy after
// the call are the child's, and their address is hoisted above the call.
// A class whose assignment operator is not trivial would need a call in
// the window: one that may throw there, with a left side whose own calls
// (`v[i]`, `*next()`) cannot be hoisted in IR. So the front end moves the
// call, the assignment and the result's temporary into a function of their
// own, and spawns that:
//
//   T f(long n, const S &s, std::string t);
//   lhs = cilk_spawn f(i++, S(), name());
//     ==>
//   struct __weft_assign_0 {      // a local class: CodeGen emits a member
//                                 // function defined in its class where used
//     static void run(long n, const S &s, std::string t, T *dst) {
//       *dst = f(n, s, static_cast<std::string &&>(t));
//     }
//   };
//   cilk_spawn __weft_assign_0::run(i++, S(), name(), &lhs);
//
// The helper's parameters take each argument exactly as the call's
// parameter would have (a reference binds the same object, a by-value
// argument is built in the parent as before), so the arguments are still
// evaluated in the parent, left to right as on this target, and their
// temporaries are destroyed by the child's window; then `&lhs`, since C++17
// sequences the right side of `=` before the left. Inside, the same
// assignment operator runs once with the call's result, which is destroyed
// after it, in the child; an exception from either leaves the spawned call
// as any child's does (SpawnExceptions.cpp). A member call passes its
// object's address first (evaluated first, as the object is), and keeps its
// qualifier, so a virtual call stays one and `B::m()` does not; a call
// through a function pointer passes the pointer. The one difference from
// the serial elision: a class argument passed by value is built in the
// parent and then moved into f's parameter, one move more.
//
// Anything else on either side is an error at the spawn: the assignment
// must be the whole expression of its statement (its value is the left
// side, which only exists after the sync), and the call one of the kinds
// above (not a call through a pointer to member function, which can be
// spawned into a new variable instead).
//
//===----------------------------------------------------------------------===//

#include "frontend/SpawnRewriter.h"
#include "frontend/SynthesizedScope.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/Twine.h"

using namespace clang;

namespace weft {
namespace {

/// The parameter type that receives \p Arg (an argument as the call's own
/// parameter would have received it) without a conversion of its own.
QualType receivingType(ASTContext &Ctx, const Expr *Arg) {
  if (Arg->isLValue())
    return Ctx.getLValueReferenceType(Arg->getType());
  if (Arg->isXValue())
    return Ctx.getRValueReferenceType(Arg->getType());
  return Arg->getType();
}

} // namespace

/// The class assignment whose right side is \p Inner, or which \p Inner
/// is (`[[weft::spawn]] x = f();` marks the whole statement), if it is the
/// whole expression \p Root; null otherwise.
const CXXOperatorCallExpr *SpawnRewriter::classAssignment(const Expr *Root,
                                                          const Expr *Inner) {
  const auto *Assign = dyn_cast<CXXOperatorCallExpr>(stripImplicit(Root));
  if (!Assign || Assign->getOperator() != OO_Equal ||
      Assign->getNumArgs() != 2)
    return nullptr;
  if (Assign != Inner && stripImplicit(Assign->getArg(1)) != Inner)
    return nullptr;
  return Assign;
}

/// Whether the assignment \p Assign needs a helper: its operator is not
/// trivial (a trivial one is a copy that the spawn's window does).
bool SpawnRewriter::needsAssignHelper(const CXXOperatorCallExpr *Assign) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Assign->getCalleeDecl());
  QualType T = Assign->getArg(0)->getType();
  return !Method || !Method->isTrivial() || !T.isTriviallyCopyableType(Ctx);
}

/// What the spawned call \p CE is called on, which the helper receives
/// before the arguments: its object (a member call or a function object),
/// a function pointer, or nothing (a direct call).
SpawnRewriter::AssignedCall SpawnRewriter::assignedCall(CallExpr *CE) {
  AssignedCall Call;
  Call.CE = CE;
  if (auto *Member = dyn_cast<CXXMemberCallExpr>(CE)) {
    auto *ME = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
    auto *Method = ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
    if (!Method || Method->isStatic())
      return {}; // a pointer to member, or something new
    Call.Method = Method;
    Call.Qualifier = ME->getQualifierLoc();
    Call.Receiver = ME->getBase();
    Call.ReceiverIsPointer = ME->isArrow();
    return Call;
  }
  if (auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getCalleeDecl());
    if (!Method || Method->isStatic() || Op->getOperator() != OO_Call)
      return {};
    Call.Method = Method;
    Call.Receiver = Op->getArg(0);
    Call.FirstArg = 1;
    return Call;
  }
  Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (auto *Ref = dyn_cast<DeclRefExpr>(Callee);
      Ref && isa<FunctionDecl>(Ref->getDecl())) {
    Call.Direct = cast<FunctionDecl>(Ref->getDecl());
    return Call;
  }
  if (!CE->getCallee()->getType()->isFunctionPointerType())
    return {};
  Call.Receiver = CE->getCallee();
  Call.ReceiverIsPointer = true;
  return Call;
}

/// The receiver as the helper's first argument: a pointer.
Expr *SpawnRewriter::receiverPointer(const AssignedCall &Call) {
  Expr *R = Call.Receiver;
  if (Call.ReceiverIsPointer)
    return R;
  return UnaryOperator::Create(Ctx, R, UO_AddrOf,
                               Ctx.getPointerType(R->getType()), VK_PRValue,
                               OK_Ordinary, R->getBeginLoc(), false,
                               FPOptionsOverride());
}

/// A local class in the spawning function with one static member function,
/// `static void run(Params...)`, to be given its body. CodeGen emits a
/// member function defined in its class wherever it is used.
CXXMethodDecl *SpawnRewriter::declareAssignHelper(ArrayRef<QualType> Params,
                                                  SourceLocation Loc,
                                                  BodyWalk &Walk) {
  auto *Fn = const_cast<FunctionDecl *>(Walk.Function);
  // Numbered per function, so that an inline function's helpers have the
  // same names in every translation unit.
  unsigned Index = AssignHelpers[Fn]++;
  auto *Class = CXXRecordDecl::Create(
      Ctx, TagTypeKind::Struct, Fn, Loc, Loc,
      &Ctx.Idents.get(("__weft_assign_" + llvm::Twine(Index)).str()));
  Class->setImplicit(true);
  Class->startDefinition();
  Fn->addDecl(Class);

  QualType FnTy = Ctx.getFunctionType(Ctx.VoidTy, Params,
                                      FunctionProtoType::ExtProtoInfo());
  auto *Run = CXXMethodDecl::Create(
      Ctx, Class, Loc, DeclarationNameInfo(&Ctx.Idents.get("run"), Loc), FnTy,
      Ctx.getTrivialTypeSourceInfo(FnTy, Loc), SC_Static,
      /*UsesFPIntrin=*/false, /*isInline=*/true,
      ConstexprSpecKind::Unspecified, Loc);
  Run->setAccess(AS_public);
  Run->setImplicit(true);
  SmallVector<ParmVarDecl *, 8> Parms;
  for (QualType P : Params) {
    auto *PD = ParmVarDecl::Create(Ctx, Run, Loc, Loc, nullptr, P,
                                   Ctx.getTrivialTypeSourceInfo(P, Loc),
                                   SC_None, nullptr);
    PD->setScopeInfo(0, Parms.size());
    Parms.push_back(PD);
  }
  Run->setParams(Parms);
  Class->addDecl(Run);
  Class->completeDefinition();
  return Run;
}

/// A reference to the helper's parameter \p P, passed on as the call's
/// argument \p Orig was: an lvalue stays one, an rvalue reference or a
/// class by value is passed on as an xvalue (moved), a scalar is loaded.
Expr *SpawnRewriter::forwardParameter(ParmVarDecl *P, const Expr *Orig) {
  QualType T = P->getType().getNonReferenceType();
  SourceLocation Loc = P->getLocation();
  Expr *Ref = SemaRef->BuildDeclRefExpr(P, T, VK_LValue, Loc);
  if (Orig->isXValue() || (Orig->isPRValue() && T->isRecordType()))
    return ImplicitCastExpr::Create(Ctx, T, CK_NoOp, Ref, nullptr, VK_XValue,
                                    FPOptionsOverride());
  return Ref;
}

/// `P->Method` for a call, P being the pointer parameter \p P.
Expr *SpawnRewriter::memberOf(ParmVarDecl *P, CXXMethodDecl *Method,
                              NestedNameSpecifierLoc Qualifier) {
  SourceLocation Loc = P->getLocation();
  QualType PtrTy = P->getType().getNonReferenceType();
  Expr *Ref = SemaRef->BuildDeclRefExpr(P, PtrTy, VK_LValue, Loc);
  Expr *Base = ImplicitCastExpr::Create(Ctx, PtrTy, CK_LValueToRValue, Ref,
                                        nullptr, VK_PRValue,
                                        FPOptionsOverride());
  return MemberExpr::Create(
      Ctx, Base, /*IsArrow=*/true, Loc, Qualifier, SourceLocation(), Method,
      DeclAccessPair::make(Method, Method->getAccess()),
      DeclarationNameInfo(Method->getDeclName(), Loc), nullptr,
      Ctx.BoundMemberTy, VK_PRValue, OK_Ordinary, NOUR_None);
}

/// Gives \p Run its body, `*dst = f(params...);`, the call rebuilt on the
/// parameters as \p Call was written and assigned with \p Assign's
/// operator. Returns false if Sema rejects it.
bool SpawnRewriter::defineAssignHelper(CXXMethodDecl *Run,
                                       const AssignedCall &Call,
                                       const CXXOperatorCallExpr *Assign) {
  SourceLocation Loc = Run->getLocation();
  SynthesizedScope Scope(*SemaRef, Run);
  ArrayRef<ParmVarDecl *> Params = Run->parameters();
  unsigned Next = 0;
  Expr *Callee;
  if (Call.Direct)
    Callee = SemaRef->BuildDeclRefExpr(Call.Direct, Call.Direct->getType(),
                                       VK_LValue, Loc);
  else if (Call.Method)
    Callee = memberOf(Params[Next++], Call.Method, Call.Qualifier);
  else
    Callee = forwardParameter(Params[Next++], Call.Receiver);
  SmallVector<Expr *, 8> Args;
  for (unsigned I = Call.FirstArg; I != Call.CE->getNumArgs(); ++I)
    Args.push_back(forwardParameter(Params[Next++], Call.CE->getArg(I)));
  ExprResult Result = SemaRef->BuildCallExpr(nullptr, Callee, Loc, Args, Loc);
  if (Result.isInvalid() || Scope.failed())
    return false;
  auto *Operator =
      const_cast<CXXMethodDecl *>(cast<CXXMethodDecl>(Assign->getCalleeDecl()));
  Expr *Assigned = memberOf(Params[Next], Operator, NestedNameSpecifierLoc());
  Expr *Value[] = {Result.get()};
  Result = SemaRef->BuildCallExpr(nullptr, Assigned, Loc, Value, Loc);
  if (!Result.isInvalid())
    Result = SemaRef->ActOnFinishFullExpr(Result.get(), Loc,
                                          /*DiscardedValue=*/true);
  if (Result.isInvalid() || Scope.failed())
    return false;
  Stmt *Body[] = {Result.get()};
  Run->setBody(CompoundStmt::Create(Ctx, Body, FPOptionsOverride(), Loc, Loc));
  return true;
}

/// Rewrites the class assignment \p Assign, at \p Root, whose right side is
/// the spawned call \p CE, into a spawn of a helper that calls and assigns
/// (see the top of this file).
void SpawnRewriter::spawnAssignment(const CXXOperatorCallExpr *Assign,
                                    CallExpr *CE, const Mark &M,
                                    BodyWalk &Walk) {
  if (!SemaRef) {
    error(M.Written, "internal error: a spawned assignment needs the "
                     "plugin's Sema");
    return;
  }
  AssignedCall Call = assignedCall(CE);
  if (!Call.CE) {
    error(M.Written, "this kind of call cannot be spawned into an assignment "
                     "of a class; initialise a new variable instead "
                     "('T x = cilk_spawn f();')");
    return;
  }
  if (!spawnableCallee(CE, M))
    return;
  // The helper's arguments: receiver, the call's arguments, destination.
  SmallVector<Expr *, 8> Args;
  if (Call.Receiver)
    Args.push_back(receiverPointer(Call));
  for (unsigned I = Call.FirstArg; I != CE->getNumArgs(); ++I)
    Args.push_back(CE->getArg(I));
  Expr *Lhs = const_cast<Expr *>(Assign->getArg(0));
  Args.push_back(UnaryOperator::Create(
      Ctx, Lhs, UO_AddrOf, Ctx.getPointerType(Lhs->getType()), VK_PRValue,
      OK_Ordinary, Lhs->getBeginLoc(), false, FPOptionsOverride()));
  SmallVector<QualType, 8> Params;
  for (const Expr *Arg : Args)
    Params.push_back(receivingType(Ctx, Arg));

  SourceLocation Loc = CE->getBeginLoc();
  CXXMethodDecl *Run = declareAssignHelper(Params, Loc, Walk);
  if (!defineAssignHelper(Run, Call, Assign)) {
    error(M.Written, "internal error: the assignment of this spawned call's "
                     "result cannot be moved into the child");
    return;
  }
  auto *Spawned = CallExpr::Create(Ctx, functionPointer(Run, Loc), Args,
                                   Ctx.VoidTy, VK_PRValue, Loc,
                                   FPOptionsOverride());
  // The statement's temporaries (the arguments') keep their full expression.
  Expr *Root = cast<Expr>(*Walk.ExprRoot);
  Expr *NewRoot = Spawned;
  if (auto *Cleanups = dyn_cast<ExprWithCleanups>(Root))
    NewRoot = ExprWithCleanups::Create(Ctx, Spawned,
                                       Cleanups->cleanupsHaveSideEffects(),
                                       Cleanups->getObjects());
  *Walk.ExprRoot = NewRoot;
  spawnCall(Spawned, M, /*InitializesVariable=*/false, Walk);
}

} // namespace weft
