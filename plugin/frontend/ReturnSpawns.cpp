//===- ReturnSpawns.cpp - `return cilk_spawn f(x);` as OpenCilk runs it ---===//
//
// OpenCilk accepts a spawn as a return statement's whole operand: f is
// spawned, the function's implicit sync waits for it (and for every earlier
// child), and its result is returned. The continuation is only that sync,
// so the spawn buys no parallelism with what follows; it still lets f run
// alongside the children spawned before it. The front end keeps exactly
// that where the result fits a local variable:
//
//   return cilk_spawn f(x);   ==>   { T r = cilk_spawn f(x); return r; }
//                                   (void: { cilk_spawn f(x); return; })
//
// after which the return's implicit sync (ImplicitSyncs.cpp) comes before
// `return r`. A result of class, array or other aggregate type would need
// a copy that the source does not have, and a return inside a catch handler
// gets no sync of its own, so there the spawn is dropped and the statement
// is the plain `return f(x);`, which the implicit sync before it makes
// equivalent: only the overlap with earlier children is lost.
//
//===----------------------------------------------------------------------===//

#include "frontend/SpawnRewriter.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace weft {

/// The spawn mark on \p Return's whole operand (in parentheses too), if
/// the operand is a call.
Mark *SpawnRewriter::returnedSpawn(const ReturnStmt *Return,
                                   const BodyWalk &Walk) {
  const Expr *Value = Return->getRetValue();
  if (!Value || Walk.Dependent)
    return nullptr;
  const Expr *Call = stripImplicit(Value);
  Mark *M = spawnMark(Call->getBeginLoc());
  if (!M || Walk.Handled.count(M) || !isa<CallExpr>(Call))
    return nullptr;
  return M;
}

/// Rewrites `return cilk_spawn f(x);` in \p S into a spawn and a return,
/// and returns true; or drops the spawn (the walk goes on with the plain
/// return) and returns false. Any other statement is left alone.
bool SpawnRewriter::splitSpawningReturn(Stmt *&S, BodyWalk &Walk) {
  auto *Return = dyn_cast<ReturnStmt>(S);
  Mark *M = Return ? returnedSpawn(Return, Walk) : nullptr;
  if (!M)
    return false;
  Expr *Value = Return->getRetValue();
  QualType T = Value->getType();
  SourceLocation Loc = Return->getReturnLoc();
  bool Void = T->isVoidType();
  if (Walk.CatchDepth || !Value->isPRValue() || !(Void || T->isScalarType())) {
    M->Matched = true;
    Walk.Handled.insert(M);
    return false;
  }
  Stmt *Split[2];
  if (Void) {
    Split[0] = Value;
    Split[1] = ReturnStmt::Create(Ctx, Loc, nullptr, nullptr);
  } else {
    auto *Result = VarDecl::Create(
        Ctx, const_cast<FunctionDecl *>(Walk.Function), Loc, Loc,
        &Ctx.Idents.get("__weft_returned"), T,
        Ctx.getTrivialTypeSourceInfo(T, Loc), SC_None);
    Result->setInit(Value);
    Result->setImplicit(true); // no warning about its scope
    Split[0] = new (Ctx) DeclStmt(DeclGroupRef(Result), Loc, Loc);
    auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                    SourceLocation(), Result, false, Loc, T,
                                    VK_LValue);
    Expr *Load = ImplicitCastExpr::Create(Ctx, T, CK_LValueToRValue, Ref,
                                          nullptr, VK_PRValue,
                                          FPOptionsOverride());
    Split[1] = ReturnStmt::Create(Ctx, Loc, Load, nullptr);
  }
  S = CompoundStmt::Create(Ctx, Split, FPOptionsOverride(), Loc,
                           Return->getEndLoc());
  return true;
}

} // namespace weft
