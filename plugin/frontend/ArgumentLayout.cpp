//===- ArgumentLayout.cpp - Tell the pass which arguments are temporaries -===//
//
// A class that is not trivial for calls (a user-written copy constructor or
// destructor; std::string) is passed by value as the address of a temporary
// that the caller builds for the call. In IR that address is an ordinary
// `ptr` argument, like a pointer the program passes, and Clang 19 gives the
// temporary no lifetime markers. The IR pass must give each activation of a
// spawning statement its own such temporary (SpawnArguments.cpp): in a loop,
// a thief's next iteration would otherwise build its argument in the same
// frame slot while the earlier child still reads it. When the class has a
// destructor, the call after the spawned one that destroys the temporary
// gives it away; with a trivial destructor nothing in the IR does.
//
// The front end knows, so it says so in the spawn marker's third argument:
// one letter per argument of the call as the IR passes them (`this` first,
// for a member call), and only when one of them is a 'T':
//
//   'T'  a class passed by value through a temporary: one `ptr` argument;
//   'S'  a pointer, a reference, an integer or enum of at most 64 bits, a
//        float or a double: exactly one IR argument on every target;
//   '?'  anything else: a struct may become one IR argument, two, or none.
//
//   take(r + i, Tagged(i))  ==>  __weft_spawn_marker((void *)take, loc, "ST")
//
// The pass lines the letters up with the call's IR arguments, skipping the
// hidden `sret` one, from the front up to the first '?' and from the back up
// to the last; a 'T' between two '?' has no certain place, and the pass
// rejects that spawn rather than guess (LowerSpawns.cpp).
//
//===----------------------------------------------------------------------===//

#include "frontend/SpawnRewriter.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace weft {
namespace {

/// The letter for an argument of type \p Ty (see the file comment).
char argumentKind(const ASTContext &Ctx, QualType Ty) {
  Ty = Ty.getCanonicalType();
  if (Ty->isReferenceType() || Ty->isPointerType() ||
      Ty->isBlockPointerType() || Ty->isObjCObjectPointerType() ||
      Ty->isNullPtrType())
    return 'S';
  if (const CXXRecordDecl *RD = Ty->getAsCXXRecordDecl())
    return RD->hasDefinition() && !RD->canPassInRegisters() ? 'T' : '?';
  if (Ty->isIntegralOrEnumerationType() && !Ty->isBitIntType() &&
      Ctx.getTypeSize(Ty) <= 64)
    return 'S';
  if (Ty->isSpecificBuiltinType(BuiltinType::Float) ||
      Ty->isSpecificBuiltinType(BuiltinType::Double))
    return 'S';
  return '?';
}

/// The prototype the call's arguments are converted to, if there is one.
const FunctionProtoType *calleePrototype(const CallExpr *CE) {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    return FD->getType()->getAs<FunctionProtoType>();
  const Expr *Callee = CE->getCallee()->IgnoreParens();
  QualType Ty = Callee->getType();
  if (const auto *PM = dyn_cast<BinaryOperator>(Callee);
      PM && PM->isPtrMemOp())
    Ty = PM->getRHS()->getType()->castAs<MemberPointerType>()->getPointeeType();
  else if (const auto *Ptr = Ty->getAs<PointerType>())
    Ty = Ptr->getPointeeType();
  return Ty->getAs<FunctionProtoType>();
}

/// Whether the call's first written argument is the implicit object of a
/// member operator (`a + b` calling a.operator+(b)).
bool firstArgumentIsObject(const CallExpr *CE) {
  if (!isa<CXXOperatorCallExpr>(CE))
    return false;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(CE->getCalleeDecl());
  return Method && Method->isImplicitObjectMemberFunction();
}

} // namespace

Expr *SpawnRewriter::argumentLayout(const CallExpr *CE) {
  if (!Ctx.getLangOpts().CPlusPlus)
    return nullptr; // C passes no class through a temporary of the call
  const FunctionProtoType *Proto = calleePrototype(CE);
  bool ObjectIsArgument = firstArgumentIsObject(CE);
  std::string Layout =
      isa<CXXMemberCallExpr>(CE) || ObjectIsArgument ? "S" : "";
  unsigned FirstParamArg = ObjectIsArgument ? 1 : 0;
  for (unsigned I = FirstParamArg, E = CE->getNumArgs(); I != E; ++I) {
    unsigned Param = I - FirstParamArg;
    // A reference parameter's argument has the referenced type: the
    // parameter's type says how it is passed; past the prototype (`...`),
    // the promoted argument's does.
    QualType Ty = Proto && Param < Proto->getNumParams()
                      ? Proto->getParamType(Param)
                      : CE->getArg(I)->getType();
    Layout += argumentKind(Ctx, Ty);
  }
  if (Layout.find('T') == std::string::npos)
    return nullptr;

  SourceLocation Loc = CE->getBeginLoc();
  QualType ArrayTy = Ctx.getStringLiteralArrayType(Ctx.CharTy, Layout.size());
  Expr *Literal = StringLiteral::Create(Ctx, Layout, StringLiteralKind::Ordinary,
                                        /*Pascal=*/false, ArrayTy, Loc);
  return ImplicitCastExpr::Create(Ctx, Ctx.getArrayDecayedType(ArrayTy),
                                  CK_ArrayToPointerDecay, Literal, nullptr,
                                  VK_PRValue, FPOptionsOverride());
}

} // namespace weft
