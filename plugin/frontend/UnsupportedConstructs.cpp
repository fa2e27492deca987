//===- UnsupportedConstructs.cpp - What a spawning function cannot contain ===//
//
// The lowering turns a spawning function into a coroutine whose
// continuation a thief may run on another stack and another thread. Some
// constructs cannot survive that:
//
//   setjmp/_setjmp/sigsetjmp/__sigsetjmp/vfork   a longjmp (or the child of a
//                        vfork) could re-enter a frame that a thief owns
//   goto *p              coro-split cannot follow indirect branches
//   asm that names the stack pointer or moves it (push, pop, call, ...)
//                        it assumes one stack for the whole function
//   [[clang::musttail]]  the slow clone has no caller frame to reuse
//   a variadic function  the slow clone cannot re-create its va_list
//
// Whether a function spawns is only known once its body has been walked, so
// the walk remembers each candidate with its statement's location and
// finishBody reports them if the function spawned: an error at the
// statement, with or without -g. The IR pass keeps the same checks, with
// the same messages, as a backstop (SpawnLowering::checkSupported); it never
// runs after one of these errors, since Clang emits no IR for a translation
// unit with errors.
//
//===----------------------------------------------------------------------===//

#include "frontend/SpawnRewriter.h"
#include "shared/UnsupportedNames.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace weft {
namespace {

/// A register name as the target normalises it ("%rsp" and "esp" are "sp"
/// on x86), lower case, as the IR's constraint string spells it.
std::string normalizedRegister(const TargetInfo &Target, StringRef Name) {
  if (Target.isValidGCCRegisterName(Name))
    Name = Target.getNormalizedGCCRegisterName(Name);
  return Name.lower();
}

bool isStackPointer(const TargetInfo &Target, StringRef Name) {
  std::string Reg = normalizedRegister(Target, Name);
  return Reg == "rsp" || Reg == "esp" || Reg == "sp" || Reg == "wsp";
}

/// The register a local register variable is bound to (`register long sp
/// asm("rsp")`), which CodeGen turns into the operand's `{reg}` constraint.
StringRef boundRegister(const Expr *Operand) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Operand->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || Var->getStorageClass() != SC_Register)
    return {};
  const auto *Label = Var->getAttr<AsmLabelAttr>();
  return Label ? Label->getLabel() : StringRef();
}

/// Inline assembly that names the stack pointer as an operand or clobber,
/// or moves it (UnsupportedNames.h), on the asm string CodeGen will emit and
/// on register variables bound to operands.
bool touchesStackPointer(const ASTContext &Ctx, const AsmStmt &Asm) {
  const TargetInfo &Target = Ctx.getTargetInfo();
  for (unsigned I = 0, E = Asm.getNumClobbers(); I != E; ++I)
    if (isStackPointer(Target, Asm.getClobber(I)))
      return true;
  auto NamesStackPointer = [&](StringRef Constraint, const Expr *Operand) {
    if (constraintNamesStackPointer(Constraint))
      return true;
    StringRef Bound = boundRegister(Operand);
    return !Bound.empty() && isStackPointer(Target, Bound);
  };
  for (unsigned I = 0, E = Asm.getNumOutputs(); I != E; ++I)
    if (NamesStackPointer(Asm.getOutputConstraint(I), Asm.getOutputExpr(I)))
      return true;
  for (unsigned I = 0, E = Asm.getNumInputs(); I != E; ++I)
    if (NamesStackPointer(Asm.getInputConstraint(I), Asm.getInputExpr(I)))
      return true;
  return asmTextTouchesStackPointer(Asm.generateAsmString(Ctx));
}

/// setjmp and friends, by the name the IR pass checks (glibc's setjmp is
/// a macro for _setjmp).
bool returnsTwiceOrForks(const FunctionDecl *Callee) {
  if (!Callee || !Callee->isExternC() || !Callee->getIdentifier())
    return false;
  return isForbiddenCallee(Callee->getName());
}

} // namespace

void SpawnRewriter::noteUnsupported(Stmt *S, BodyWalk &Walk) {
  if (Walk.Dependent)
    return; // checked on each instantiation, where callees are resolved
  auto Note = [&](SourceLocation Loc, std::string Msg) {
    Walk.Unsupported.push_back({fileLoc(Loc), std::move(Msg)});
  };
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        returnsTwiceOrForks(Callee))
      Note(Call->getBeginLoc(),
           (Callee->getName() + ForbiddenCalleeMessage).str());
  } else if (const auto *Goto = dyn_cast<IndirectGotoStmt>(S)) {
    Note(Goto->getGotoLoc(), ComputedGotoMessage);
  } else if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
    if (touchesStackPointer(Ctx, *Asm))
      Note(Asm->getAsmLoc(), StackPointerAsmMessage);
  } else if (const auto *Attributed = dyn_cast<AttributedStmt>(S)) {
    for (const Attr *A : Attributed->getAttrs())
      if (isa<MustTailAttr>(A))
        Note(A->getLocation(),
             "musttail calls cannot appear in a spawning function");
  }
}

void SpawnRewriter::reportUnsupported(BodyWalk &Walk) {
  if (Walk.Dependent || Walk.Spawns == 0)
    return;
  if (Walk.Function && Walk.Function->isVariadic())
    error(Walk.FirstSpawn, "a variadic function cannot spawn");
  for (const auto &[Loc, Msg] : Walk.Unsupported)
    error(Loc, Msg); // once per statement across instantiations
}

} // namespace weft
