//===- SpawnRewriter.cpp - Make spawn and sync marks visible to CodeGen ---===//

#include "frontend/SpawnRewriter.h"
#include "frontend/ClangCompat.h"
#include "frontend/Diagnostics.h"
#include "shared/Markers.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace weft {

/// Finds every function body in a declaration, including methods of
/// classes, and function template patterns (checked, not rewritten).
class FunctionFinder : public RecursiveASTVisitor<FunctionFinder> {
public:
  explicit FunctionFinder(SpawnRewriter &R) : R(R) {}
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      R.rewriteBody(FD);
    return true;
  }
  /// OpenCilk 2 reducer types where the rewrite cannot follow them are
  /// errors at their declarations (ReducerTypes.cpp).
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    R.checkReducerDeclaration(D);
    return true;
  }
  /// So is a reducer type given to a template, whose uses of it the
  /// rewrite of its instantiations would not see as a reducer's.
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &Arg) {
    R.checkReducerTemplateArgument(Arg);
    return RecursiveASTVisitor::TraverseTemplateArgumentLoc(Arg);
  }
  /// A lambda outside any function body (in a namespace-scope variable's
  /// or a data member's initialiser) has a call operator that no
  /// declaration here leads to. Those in bodies were walked with them.
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    R.rewriteBody(Lambda->getCallOperator());
    return true;
  }

private:
  SpawnRewriter &R;
};

SpawnRewriter::SpawnRewriter(ASTContext &Ctx)
    : Ctx(Ctx), Marks(MarkTable::get()) {
  // Each spawn marker also carries the spawn's source location, for errors
  // that only the IR pass can see (SourceErrors.h).
  // Both take a third argument where the call passes a class by value
  // through a temporary (ArgumentLayout.cpp), hence the `...`.
  SpawnMarker = makeMarker(SpawnMarkerName, Ctx.VoidPtrTy,
                           {Ctx.VoidPtrTy, Ctx.UnsignedIntTy},
                           /*MayThrow=*/false, /*Variadic=*/true);
  // The sync marker may throw: Clang then emits it as an invoke wherever the
  // sync sits in a try block or a scope with destructors, which tells the
  // IR pass where an exception rethrown at the sync must go.
  SyncMarker = makeMarker(SyncMarkerName, Ctx.VoidTy, {}, /*MayThrow=*/true);
  ObjectMarker = makeMarker(ObjectMarkerName, Ctx.VoidPtrTy,
                            {Ctx.VoidPtrTy, Ctx.UnsignedIntTy},
                            /*MayThrow=*/false, /*Variadic=*/true);
  SpawnEndMarker = makeMarker(SpawnEndMarkerName, Ctx.VoidTy, {});
}

FunctionDecl *SpawnRewriter::makeMarker(StringRef Name, QualType Ret,
                                        ArrayRef<QualType> Params,
                                        bool MayThrow, bool Variadic) {
  FunctionProtoType::ExtProtoInfo EPI;
  EPI.Variadic = Variadic;
  QualType FnTy = Ctx.getFunctionType(Ret, Params, EPI);
  auto *FD = FunctionDecl::Create(
      Ctx, Ctx.getTranslationUnitDecl(), SourceLocation(), SourceLocation(),
      DeclarationName(&Ctx.Idents.get(Name)), FnTy,
      Ctx.getTrivialTypeSourceInfo(FnTy), SC_Extern);
  SmallVector<ParmVarDecl *, 1> Parms;
  for (QualType P : Params) {
    auto *PD = ParmVarDecl::Create(Ctx, FD, SourceLocation(), SourceLocation(),
                                   nullptr, P, Ctx.getTrivialTypeSourceInfo(P),
                                   SC_None, nullptr);
    PD->setScopeInfo(0, Parms.size());
    Parms.push_back(PD);
  }
  FD->setParams(Parms);
  FD->setImplicit(true);
  // The IR name must be exactly Name in C and C++ alike. A spawn marker
  // wraps the callee, so a call to it must never become an invoke.
  FD->addAttr(compat::asmLabel(Ctx, Name));
  if (!MayThrow)
    FD->addAttr(NoThrowAttr::CreateImplicit(Ctx));
  return FD;
}

SourceLocation SpawnRewriter::fileLoc(SourceLocation Loc) const {
  return Ctx.getSourceManager().getExpansionLoc(Loc);
}

void SpawnRewriter::error(SourceLocation Loc, StringRef Msg) {
  // A template's instantiations share their marks' locations: one error
  // for each, however many times the template is instantiated.
  if (!Errors.insert({Loc.getRawEncoding(), Msg.str()}).second)
    return;
  reportError(Ctx.getDiagnostics(), Loc, Msg);
}

void SpawnRewriter::rewriteDecl(Decl *D) { FunctionFinder(*this).TraverseDecl(D); }

void SpawnRewriter::rewriteBody(FunctionDecl *FD) {
  Stmt *Body = FD->getBody();
  if (!Body || !WalkedFunctions.insert(FD).second)
    return;
  BodyWalk Walk(FD, FD->isDependentContext(), Body);
  llvm::DenseSet<const Stmt *> Shared; // PatternSharing.cpp
  if (!Walk.Dependent && FD->isTemplateInstantiation()) {
    collectPatternNodes(FD, Shared);
    Walk.Shared = &Shared;
  }
  if (auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    walkConstructorInits(Ctor, Walk.Dependent); // ReducerMembers.cpp
  walk(Body, Walk);
  if (Body != FD->getBody())
    FD->setBody(Body);
  finishBody(dyn_cast<CompoundStmt>(Body), Walk);
  if (auto *Method = dyn_cast<CXXMethodDecl>(FD))
    addReducerLifetimes(Method); // ReducerMembers.cpp
}

/// Walks \p S in pre-order, rewriting it in its slot. What takes over a
/// whole statement comes first (a sync's `;`, a reducer use, a lambda, a
/// spawning return, a parallel loop), then the statement's kind.
void SpawnRewriter::walk(Stmt *&S, BodyWalk &Walk) {
  if (!S)
    return;
  // Blocks, branches and loops the walk may write into must not be the
  // template pattern's own (PatternSharing.cpp).
  if (!isa<Expr>(S) || isa<StmtExpr>(S))
    ownStatement(S, Walk);
  // A spawn's rewrite starts at the outermost expression's slot.
  bool IsRoot = isa<Expr>(S) && !Walk.ExprRoot;
  if (IsRoot)
    Walk.ExprRoot = &S;
  struct ClearRootOnExit {
    BodyWalk &Walk;
    bool IsRoot;
    ~ClearRootOnExit() {
      if (IsRoot)
        Walk.ExprRoot = nullptr;
    }
  } ClearRoot{Walk, IsRoot};
  if (isa<NullStmt>(S))
    return walkNullStatement(S, Walk);
  if (rewriteReducerUse(S, Walk)) // ReducerUses.cpp
    return;
  if (auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    checkReducerCaptures(Lambda); // ReducerTypes.cpp
    walkLambda(Lambda, Walk); // a function of its own
    return;
  }
  if (splitSpawningReturn(S, Walk)) { // ReturnSpawns.cpp
    walk(S, Walk);
    return;
  }
  noteStatement(S, Walk);
  if (walkParallelLoop(S, Walk)) // ParallelForRewriter.cpp
    return;
  walkByKind(S, Walk);
}

/// `;` alone: a sync's target, where it is marked.
void SpawnRewriter::walkNullStatement(Stmt *&S, BodyWalk &Walk) {
  SourceLocation Semi = cast<NullStmt>(S)->getSemiLoc();
  Mark *M = Marks.find(MarkKind::Sync, Semi);
  if (!M)
    return;
  M->Matched = true;
  Walk.Syncs.push_back(M->Written);
  if (!Walk.Dependent)
    S = makeSyncCall(Semi);
}

/// What the function's end needs to know of \p S before it is walked: an
/// unsupported construct, a jump out of a cilk_scope, a return, a label.
void SpawnRewriter::noteStatement(Stmt *&S, BodyWalk &Walk) {
  noteUnsupported(S, Walk);
  noteScopeJump(S, Walk); // ScopeSyncs.cpp
  if (isa<ReturnStmt>(S) && !Walk.CatchDepth)
    (Walk.Spawns || Walk.LoopDepth ? Walk.Returns : Walk.EarlyReturns)
        .push_back(&S);
  Walk.HasLabels |= isa<LabelStmt>(S);
}

/// Walks \p S by its kind, once nothing above has taken it over.
void SpawnRewriter::walkByKind(Stmt *&S, BodyWalk &Walk) {
  if (auto *Try = dyn_cast<CXXTryStmt>(S))
    return walkTry(Try, Walk);
  if (isa<CXXCatchStmt>(S))
    return walkNested(S, Walk.CatchDepth, Walk);
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return walkNested(S, Walk.LoopDepth, Walk);
  if (isa<SwitchStmt>(S))
    return walkNested(S, Walk.SwitchDepth, Walk);
  if (auto *DS = dyn_cast<DeclStmt>(S))
    matchDeclaration(DS, Walk);
  else if (isa<Expr>(S))
    matchExpression(S, Walk);
  if (isa<CompoundStmt>(S))
    return walkBlock(S, Walk);
  walkChildren(S, Walk);
  forgetConstantValues(S);        // ReducerUses.cpp
  registerLocalReducers(S, Walk); // ReducerUses.cpp
}

/// Walks the children of \p S inside one more catch, loop or switch.
void SpawnRewriter::walkNested(Stmt *S, unsigned &Depth, BodyWalk &Walk) {
  ++Depth;
  walkChildren(S, Walk);
  --Depth;
}

/// Walks a block, which may be a cilk_scope.
void SpawnRewriter::walkBlock(Stmt *&S, BodyWalk &Walk) {
  bool IsScope = openScope(cast<CompoundStmt>(S), Walk);
  walkScope(S, Walk);
  if (IsScope)
    closeScope(cast<CompoundStmt>(S), Walk);
  checkScopeEnd(cast<CompoundStmt>(S), Walk);
}

/// Notes the variables \p DS initialises, and handles a spawn that
/// initialises one, marked at the variable's name or the statement's start.
void SpawnRewriter::matchDeclaration(DeclStmt *DS, BodyWalk &Walk) {
  for (Decl *D : DS->decls())
    if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
      Walk.VariableInits[stripImplicit(VD->getInit())] = VD;
  for (Decl *D : DS->decls())
    if (auto *VD = dyn_cast<VarDecl>(D))
      if (Mark *M = spawnMark(VD->getLocation())) {
        M->Matched = true;
        handleSpawnDecl(VD, *M, Walk);
      }
  // `#pragma weft spawn` on the line before a declaration targets its
  // first token, and marks the one variable it declares.
  Mark *M = spawnMark(DS->getBeginLoc());
  if (!M)
    return;
  M->Matched = true;
  if (auto *VD = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                    : nullptr) {
    handleSpawnDecl(VD, *M, Walk);
    return;
  }
  if (!Walk.Spawns++) // meant as one: no warning about the syncs
    Walk.FirstSpawn = M->Written;
  error(M->Written, "a spawned declaration must declare one variable");
}

/// Notes the value an assignment stores; handles a spawn marked at \p E.
void SpawnRewriter::matchExpression(Stmt *&S, BodyWalk &Walk) {
  auto *E = cast<Expr>(S);
  if (auto *Assign = dyn_cast<BinaryOperator>(E);
      Assign && Assign->getOpcode() == BO_Assign)
    Walk.AssignedValues[stripImplicit(Assign->getRHS())] = Assign->getLHS();
  // Pre-order: the outermost expression that begins at a target is the
  // one the mark applies to; the call inside it is found from there.
  Mark *M = spawnMark(E->getBeginLoc());
  if (!M || Walk.Handled.count(M))
    return;
  // A value that is no call's becomes one (SpawnStatements.cpp).
  if (outlineSpawnedExpression(S, *M, Walk))
    return;
  Walk.Handled.insert(M);
  M->Matched = true;
  handleSpawnExpr(cast<Expr>(S), *M, Walk);
}

namespace {

/// Whether \p Child sits in \p Parent where a statement goes (a branch or
/// a loop body), rather than being part of an expression or a header.
bool isSubStatement(const Stmt *Parent, const Stmt *Child) {
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse();
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return Child == For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return Child == While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Child == Do->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Parent))
    return Child == Range->getBody();
  if (const auto *Case = dyn_cast<SwitchCase>(Parent))
    return Child == Case->getSubStmt();
  if (const auto *Label = dyn_cast<LabelStmt>(Parent))
    return Child == Label->getSubStmt();
  if (const auto *Attributed = dyn_cast<AttributedStmt>(Parent))
    return Child == Attributed->getSubStmt();
  return false;
}

FPOptionsOverride fpFeatures(const CompoundStmt *Scope) {
  return Scope->hasStoredFPFeatures() ? Scope->getStoredFPFeatures()
                                      : FPOptionsOverride();
}

} // namespace

void SpawnRewriter::walkChildren(Stmt *S, BodyWalk &Walk) {
  for (Stmt *&Child : S->children()) {
    if (!Child || !isSubStatement(S, Child)) {
      walk(Child, Walk);
      continue;
    }
    if (!walkStatement(Child, Walk))
      continue;
    // A block of its own changes nothing for an expression, and a variable
    // declared as a branch's whole body is dead at its end anyway.
    Stmt *Ended[] = {Child, makeSpawnEndCall(Child->getEndLoc())};
    Child = CompoundStmt::Create(Ctx, Ended, FPOptionsOverride(),
                                 Child->getBeginLoc(), Child->getEndLoc());
  }
}

/// Walks a statement where a statement goes. Returns true if it is an
/// expression or a declaration that spawns, which then needs the end marker
/// after it: everything between the spawned call and the marker (the
/// result's stores, the temporaries' destructors) is the child's part.
bool SpawnRewriter::walkStatement(Stmt *&S, BodyWalk &Walk) {
  unsigned SpawnsBefore = Walk.Spawns;
  if (outlineSpawnedStatement(S, Walk)) // SpawnStatements.cpp
    return false;
  walk(S, Walk);
  return S && Walk.Spawns != SpawnsBefore && !Walk.Dependent &&
         (isa<Expr>(S) || isa<DeclStmt>(S));
}

/// Walks a block, putting the end marker after each spawning statement. A
/// declaration's scope is the rest of the block, so the marker cannot go
/// into a block of its own: the block is rebuilt with the markers in it.
void SpawnRewriter::walkScope(Stmt *&S, BodyWalk &Walk) {
  auto *Scope = cast<CompoundStmt>(S);
  SmallVector<Stmt *, 16> Body;
  SmallVector<unsigned, 16> NewIndex;
  for (Stmt *&Child : Scope->body()) {
    bool EndsSpawn = walkStatement(Child, Walk);
    NewIndex.push_back(Body.size());
    Body.push_back(Child);
    if (EndsSpawn)
      Body.push_back(makeSpawnEndCall(Child->getEndLoc()));
  }
  if (Body.size() == Scope->size())
    return;
  CompoundStmt *Ended = CompoundStmt::Create(
      Ctx, Body, fpFeatures(Scope), Scope->getLBracLoc(), Scope->getRBracLoc());
  moveSlots(Scope, Ended, NewIndex, Walk);
  if (S == Walk.Body)
    Walk.Body = Ended;
  S = Ended;
}

/// Returns and jumps out of cilk_scope blocks are recorded by their slot;
/// a slot in \p From's body moves to \p To's.
void SpawnRewriter::moveSlots(const CompoundStmt *From, CompoundStmt *To,
                              ArrayRef<unsigned> NewIndex, BodyWalk &Walk) {
  auto Move = [&](Stmt **&Slot) {
    if (Slot >= From->body_begin() && Slot < From->body_end())
      Slot = To->body_begin() + NewIndex[Slot - From->body_begin()];
  };
  for (auto *Slots : {&Walk.Returns, &Walk.EarlyReturns})
    for (Stmt **&Slot : *Slots)
      Move(Slot);
  for (OpenScope &Scope : Walk.Scopes)
    for (ScopeExit &Exit : Scope.Exits)
      Move(Exit.Slot);
}

void SpawnRewriter::handleSpawnExpr(Expr *E, const Mark &M, BodyWalk &Walk) {
  if (Walk.Dependent)
    return; // checked again on each instantiation
  const Expr *Inner = stripImplicit(E);
  if (const auto *Assign = dyn_cast<BinaryOperator>(Inner);
      Assign && Assign->getOpcode() == BO_Assign)
    Inner = stripImplicit(Assign->getRHS());
  bool InitializesVariable = false;
  if (const VarDecl *Var = Walk.VariableInits.lookup(Inner)) {
    InitializesVariable = true;
    noteSpawnResult(Var, M, Walk);
  } else if (const Expr *Target = Walk.AssignedValues.lookup(Inner)) {
    noteSpawnResult(Target, M, Walk);
  }
  if (!Walk.Spawns++)
    Walk.FirstSpawn = M.Written;
  // `x = cilk_spawn f()` for a class x (also `[[weft::spawn]] x = f();`):
  // a trivial assignment is a copy in the window, like a scalar's store;
  // any other moves into a helper the child runs (AssignSpawns.cpp).
  if (const CXXOperatorCallExpr *Assign =
          classAssignment(cast<Expr>(*Walk.ExprRoot), Inner)) {
    Inner = stripImplicit(Assign->getArg(1));
    noteSpawnResult(Assign->getArg(0), M, Walk);
    if (const auto *CE = dyn_cast<CallExpr>(Inner);
        CE && needsAssignHelper(Assign)) {
      spawnAssignment(Assign, const_cast<CallExpr *>(CE), M, Walk);
      return;
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(Inner)) {
    if (CallExpr *Owned = ownSpawnedCall(*Walk.ExprRoot, CE, M, Walk))
      spawnCall(Owned, M, InitializesVariable, Walk);
    return;
  }
  error(M.Written, "a spawn must be followed by a function call, or be "
                   "an assignment of a call ('x = cilk_spawn f(a)')");
}

void SpawnRewriter::handleSpawnDecl(VarDecl *VD, const Mark &M,
                                    BodyWalk &Walk) {
  if (!Walk.Spawns++)
    Walk.FirstSpawn = M.Written;
  if (Walk.Dependent)
    return;
  noteSpawnResult(VD, M, Walk);
  if (VD->getType()->isReferenceType()) {
    error(M.Written, "a spawned call cannot initialise a reference: the "
                     "referenced result may not exist before the sync");
    return;
  }
  // A value that is no call's becomes one (SpawnStatements.cpp).
  if (VD->getInit() && !Walk.Dependent) {
    Stmt *&Slot = *VD->getInitAddress();
    Walk.VariableInits[stripImplicit(VD->getInit())] = VD;
    if (outlineSpawnedExpression(Slot, const_cast<Mark &>(M), Walk))
      return;
  }
  const Expr *Init = VD->getInit() ? stripImplicit(VD->getInit()) : nullptr;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(Init)) {
    if (CallExpr *Owned = ownSpawnedCall(*VD->getInitAddress(), CE, M, Walk))
      spawnCall(Owned, M, /*InitializesVariable=*/true, Walk);
    return;
  }
  error(M.Written, "the initialiser of a spawned declaration must be a "
                   "function call");
}

/// The spawned call \p CE, found under \p Root, made the walk's own to
/// change: in a template instantiation, the nodes from Root down to it are
/// copied where they are the pattern's (PatternSharing.cpp).
CallExpr *SpawnRewriter::ownSpawnedCall(Stmt *&Root, const CallExpr *CE,
                                        const Mark &M, BodyWalk &Walk) {
  if (Stmt *Owned = ownPath(Root, CE, Walk))
    return cast<CallExpr>(Owned);
  error(M.Written, "internal error: this spawn cannot be rewritten in a "
                   "template instantiation without changing the template");
  return nullptr;
}

void SpawnRewriter::spawnCall(CallExpr *CE, const Mark &M,
                              bool InitializesVariable, BodyWalk &Walk) {
  if (!SpawnedCalls.insert(CE).second)
    return;
  if (!spawnableCallee(CE, M))
    return;
  if (CE->getType()->isRecordType() && Ctx.getLangOpts().CPlusPlus &&
      !CE->getType().isTriviallyCopyableType(Ctx) && !InitializesVariable) {
    // Copy elision constructs a new variable in place, inside the spawn;
    // an assignment would run operator= in the continuation.
    // (An assignment that is a statement of its own runs in the child:
    // AssignSpawns.cpp.)
    error(M.Written, "a spawned call returning a class that is not trivially "
                     "copyable must initialise a new variable "
                     "('T x = cilk_spawn f();') or be assigned by a statement "
                     "of its own ('x = cilk_spawn f();')");
    return;
  }
  const SpawnSite Site{M.Written, argumentLayout(CE)};
  if (auto *Member = dyn_cast<CXXMemberCallExpr>(CE)) {
    // (obj.*pm)(a) and (ptr->*pm)(a): the object is marked as for obj.m(a);
    // the pass finds the call by its `this`, which Clang adjusts from the
    // marked object (a virtual pm loads its vtable from the same pointer).
    auto *PM = dyn_cast<BinaryOperator>(Member->getCallee()->IgnoreParens());
    if (PM && PM->isPtrMemOp()) {
      Stmt *Callee = Member->getCallee();
      auto *Owned = cast<BinaryOperator>(ownPath(Callee, PM, Walk));
      Member->setCallee(cast<Expr>(Callee));
      markObject(Owned, Site);
      return;
    }
    auto *ME = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
    if (!ME || !isa<CXXMethodDecl>(ME->getMemberDecl()) ||
        cast<CXXMethodDecl>(ME->getMemberDecl())->isStatic()) {
      error(M.Written, "this kind of member call cannot be spawned yet");
      return;
    }
    // The call is ours to change, but `this->m` may be the pattern's.
    Stmt *Callee = Member->getCallee();
    Stmt *Owned = ownPath(Callee, ME, Walk);
    Member->setCallee(cast<Expr>(Callee));
    markObject(cast<MemberExpr>(Owned), Site);
    return;
  }
  if (auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getCalleeDecl());
    if (Method && !Method->isStatic()) {
      Op->setArg(0, markObjectGLValue(Op->getArg(0), Site));
      return;
    }
  }
  Expr *Callee = CE->getCallee();
  if (!Callee->getType()->isFunctionPointerType()) {
    error(M.Written, "only calls of functions, function pointers, member "
                     "functions and function objects can be spawned");
    return;
  }
  Expr *Marked = markerCall(SpawnMarker, Callee, Site);
  CE->setCallee(ImplicitCastExpr::Create(Ctx, Callee->getType(), CK_BitCast,
                                         Marked, nullptr, VK_PRValue,
                                         FPOptionsOverride()));
}

/// Whether \p CE's callee can be spawned, with the error at \p M if not. A
/// library function that Clang also knows as a builtin (strcpy, strdup,
/// printf, labs) is a function like any other once it is called through
/// the spawn marker's pointer, which CodeGen cannot lower as the builtin. A
/// builtin of the compiler's own (__builtin_labs, __builtin_memcpy, a
/// target's) has no address to call through.
bool SpawnRewriter::spawnableCallee(const CallExpr *CE, const Mark &M) {
  if (!isCompilerBuiltinCall(CE))
    return true;
  error(M.Written, "a compiler builtin cannot be spawned: spawn a function "
                   "that calls it");
  return false;
}

/// The raw encoding of \p Spawn as an `unsigned int` literal: the markers'
/// second argument, which the IR pass reports its errors at.
Expr *SpawnRewriter::spawnLocation(SourceLocation Spawn) {
  QualType Ty = Ctx.UnsignedIntTy;
  llvm::APInt Raw(Ctx.getIntWidth(Ty), Spawn.getRawEncoding());
  return IntegerLiteral::Create(Ctx, Raw, Ty, Spawn);
}

/// `Marker((void *)Ptr, loc[, layout])`, of type `void *`.
Expr *SpawnRewriter::markerCall(FunctionDecl *Marker, Expr *Ptr,
                                const SpawnSite &Site) {
  SourceLocation Loc = Ptr->getBeginLoc();
  FPOptionsOverride FPO;
  SmallVector<Expr *, 3> Args = {
      ImplicitCastExpr::Create(Ctx, Ctx.VoidPtrTy, CK_BitCast, Ptr, nullptr,
                               VK_PRValue, FPO),
      spawnLocation(Site.Written)};
  if (Site.Layout)
    Args.push_back(Site.Layout);
  return CallExpr::Create(Ctx, functionPointer(Marker, Loc), Args,
                          Ctx.VoidPtrTy, VK_PRValue, Loc, FPO);
}

Expr *SpawnRewriter::markPointer(Expr *Ptr, const SpawnSite &Site) {
  // (T *)__weft_spawn_object((void *)ptr, loc): the IR pass finds the
  // spawned call as the one whose `this` argument derives from the marker's
  // result.
  return ImplicitCastExpr::Create(Ctx, Ptr->getType(), CK_BitCast,
                                  markerCall(ObjectMarker, Ptr, Site), nullptr,
                                  VK_PRValue, FPOptionsOverride());
}

Expr *SpawnRewriter::markObjectGLValue(Expr *Object, const SpawnSite &Site) {
  SourceLocation Loc = Object->getBeginLoc();
  QualType PtrTy = Ctx.getPointerType(Object->getType());
  Expr *Addr = UnaryOperator::Create(Ctx, Object, UO_AddrOf, PtrTy, VK_PRValue,
                                     OK_Ordinary, Loc, false,
                                     FPOptionsOverride());
  return UnaryOperator::Create(Ctx, markPointer(Addr, Site), UO_Deref,
                               Object->getType(), VK_LValue, OK_Ordinary, Loc,
                               false, FPOptionsOverride());
}

void SpawnRewriter::markObject(MemberExpr *ME, const SpawnSite &Site) {
  if (ME->isArrow())
    ME->setBase(markPointer(ME->getBase(), Site));
  else
    ME->setBase(markObjectGLValue(ME->getBase(), Site));
}

void SpawnRewriter::markObject(BinaryOperator *PM, const SpawnSite &Site) {
  if (PM->getOpcode() == BO_PtrMemI)
    PM->setLHS(markPointer(PM->getLHS(), Site));
  else
    PM->setLHS(markObjectGLValue(PM->getLHS(), Site));
}

Expr *SpawnRewriter::functionPointer(FunctionDecl *FD, SourceLocation Loc) {
  ExprValueKind VK = Ctx.getLangOpts().CPlusPlus ? VK_LValue : VK_PRValue;
  auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(),
                                  SourceLocation(), FD, false, Loc,
                                  FD->getType(), VK);
  return ImplicitCastExpr::Create(Ctx, Ctx.getPointerType(FD->getType()),
                                  CK_FunctionToPointerDecay, Ref, nullptr,
                                  VK_PRValue, FPOptionsOverride());
}

Expr *SpawnRewriter::makeSyncCall(SourceLocation Loc) {
  return CallExpr::Create(Ctx, functionPointer(SyncMarker, Loc), {},
                          Ctx.VoidTy, VK_PRValue, Loc, FPOptionsOverride());
}

Expr *SpawnRewriter::makeSpawnEndCall(SourceLocation Loc) {
  return CallExpr::Create(Ctx, functionPointer(SpawnEndMarker, Loc), {},
                          Ctx.VoidTy, VK_PRValue, Loc, FPOptionsOverride());
}

void SpawnRewriter::reportUnmatched() {
  Marks.forEachUnmatched([&](const Mark &M) {
    switch (M.Kind) {
    case MarkKind::Spawn:
      error(M.Written, "a spawn must be followed by a function call inside a "
                       "function body");
      break;
    case MarkKind::Sync:
      error(M.Written, "a sync must be a statement of its own ('cilk_sync;') "
                       "inside a function body");
      break;
    case MarkKind::Scope:
      error(M.Written, "a scope must be followed by a block "
                       "('cilk_scope { ... }') inside a function body");
      break;
    case MarkKind::For:
      error(M.Written, "cilk_for must be followed by a for loop inside a "
                       "function body ('cilk_for (int i = 0; i < n; ++i)')");
      break;
    case MarkKind::Grainsize:
      error(M.Written, "'#pragma cilk grainsize' must be followed by a "
                       "cilk_for loop");
      break;
    }
  });
}

} // namespace weft
