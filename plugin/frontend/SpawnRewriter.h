//===- SpawnRewriter.h - Make spawn and sync marks visible to CodeGen -----===//
//
// Clang's CodeGen emits nothing for statement attributes or pragmas, so the
// front end rewrites the AST before CodeGen sees each function:
//
//   x = fib(n - 1)   ==>   x = ((long (*)(long))__weft_spawn_marker((void *)fib, loc))(n - 1)
//   g(p, S(i))       ==>   ((void (*)(int *, S))__weft_spawn_marker((void *)g, loc, "ST"))(p, S(i))
//                          (S not trivial for calls: ArgumentLayout.cpp)
//   obj.m(a)         ==>   (*(S *)__weft_spawn_object((void *)&obj, loc)).m(a)
//   (p->*pm)(a)      ==>   (((S *)__weft_spawn_object((void *)p, loc))->*pm)(a)
//   a spawning statement s;  ==>  s; __weft_spawn_end();   (where the
//                          statement's temporaries are gone: the child's
//                          part ends there; SpawnLowering's window)
//   ;  (a sync)      ==>   __weft_sync_marker();
//   return e;        ==>   { __weft_sync_marker(); return e; }   (implicit
//                          sync, before the locals' destructors run;
//                          ImplicitSyncs.cpp)
//   cilk_scope { s; break; }  ==>  { s; { __weft_sync_marker(); break; }
//                          __weft_sync_marker(); }   (every way out of a
//                          scope that spawns; ScopeSyncs.cpp)
//   return cilk_spawn f(x);  ==>  { T r = cilk_spawn f(x); return r; }
//                          (ReturnSpawns.cpp)
//   lhs = cilk_spawn f(a);   ==>  cilk_spawn __weft_assign_0::run(a, &lhs);
//                          (a class with a non-trivial operator=: the helper
//                          calls f and assigns; AssignSpawns.cpp)
//   sum  (declared `long cilk_reducer(I, R) sum`)  ==>
//        (*(long *)__weft_hyper_lookup((void *)&sum, 8, 8, I, R))
//                          (the strand's view; ReducerUses.cpp)
//
// The arguments are still evaluated by the original call, in the parent,
// before the spawn; the IR pass (LowerSpawns.cpp) strips the marker again
// and knows exactly which call is spawned. `loc` is the spawn keyword's
// SourceLocation (raw encoding, an unsigned int), where the pass reports
// errors about the spawn (SourceErrors.h).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SPAWNREWRITER_H
#define WEFT_PLUGIN_SPAWNREWRITER_H

#include "frontend/ReducerTypes.h"
#include "frontend/parallel_for/ParallelForForm.h"
#include "frontend/SpawnMarks.h"
#include "frontend/StripImplicit.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>
#include <set>
#include <string>

namespace clang {
class AnnotateTypeAttr;
class Sema;
}

namespace weft {

class SpawnRewriter {
public:
  explicit SpawnRewriter(clang::ASTContext &Ctx);

  /// Sema builds the parallel loops' expressions (ParallelForRewriter.cpp).
  void setSema(clang::Sema &S) { SemaRef = &S; }

  /// Hands a function the front end made to CodeGen (a spawned
  /// statement's, SpawnStatements.cpp).
  std::function<void(clang::Decl *)> EmitDecl;

  /// Rewrites the marks inside every function body in \p D (a top-level
  /// declaration, a class, a namespace, or a template instantiation).
  /// Template patterns are only checked; their instantiations arrive later.
  void rewriteDecl(clang::Decl *D);

  /// Errors for marks that never matched a call or an empty statement.
  void reportUnmatched();

  /// Errors for every use of a reducer that the rewrite left as the
  /// variable itself: it would be the leftmost view on every strand
  /// (ReducerGuard.cpp). Run once the translation unit is complete.
  void checkRemainingReducerUses(clang::TranslationUnitDecl *TU);

  /// Registers and unregisters reducer data members in the constructors
  /// and destructors Sema has defined by the end of the translation unit,
  /// and reports the classes that cannot (ReducerMembers.cpp). Run once
  /// the translation unit is complete, before checkRemainingReducerUses.
  void finishReducerMembers(clang::TranslationUnitDecl *TU);

private:
  friend class FunctionFinder;
  friend class ReducerGuard;
  void rewriteBody(clang::FunctionDecl *FD);
  /// A spawn whose result goes into a local variable, checked when the
  /// variable's scope closes (ImplicitSyncs.cpp).
  struct SpawnResult {
    const clang::VarDecl *Var;
    clang::SourceLocation Spawn;
    unsigned SyncsBefore; // syncs walked before the spawn (syncsSoFar)
  };
  /// A break, continue or goto that may leave a cilk_scope block, and how
  /// many loops (continue) or loops and switches (break) enclose it.
  struct ScopeExit {
    clang::Stmt **Slot;
    unsigned Depth;
  };
  /// A cilk_scope block being walked (ScopeSyncs.cpp).
  struct OpenScope {
    unsigned SpawnsBefore; // the walk's spawns when the block began
    unsigned LoopDepth;    // loops around the block
    unsigned BreakDepth;   // loops and switches around the block
    llvm::SmallVector<ScopeExit, 2> Exits; // jumps that may leave it
    llvm::SmallPtrSet<const clang::LabelDecl *, 2> Labels; // labels in it
  };
  struct BodyWalk {
    BodyWalk(const clang::FunctionDecl *Function, bool Dependent,
             const clang::Stmt *Body)
        : Function(Function), Dependent(Dependent), Body(Body) {}
    const clang::FunctionDecl *Function;       // or a lambda's call operator
    bool Dependent;                            // a template pattern
    const clang::Stmt *Body;                   // the function's body (block)
    llvm::SmallPtrSet<const Mark *, 8> Handled; // marks applied in this body
    // Initialisers and assigned values seen so far, and what they store to.
    llvm::DenseMap<const clang::Expr *, const clang::VarDecl *> VariableInits;
    llvm::DenseMap<const clang::Expr *, const clang::Expr *> AssignedValues;
    unsigned Spawns = 0;
    clang::SourceLocation FirstSpawn;
    unsigned CatchDepth = 0; // inside a catch handler's body
    unsigned LoopDepth = 0;
    unsigned SwitchDepth = 0;
    bool HasLabels = false;  // a goto may run code twice
    llvm::SmallVector<clang::SourceLocation, 2> Syncs;
    llvm::SmallVector<clang::Stmt **, 4> Returns; // a spawn may come before
    llvm::SmallVector<clang::Stmt **, 4> EarlyReturns; // no spawn before
    llvm::SmallVector<SpawnResult, 4> Results;
    llvm::SmallVector<OpenScope, 1> Scopes; // innermost last
    unsigned ScopeSyncs = 0;                // scope ends that synced
    // Constructs a spawning function cannot contain, reported only if it
    // spawns (UnsupportedConstructs.cpp).
    llvm::SmallVector<std::pair<clang::SourceLocation, std::string>, 1>
        Unsupported;
    // In a template instantiation, the nodes it shares with its pattern,
    // which the walk copies before changing (PatternSharing.cpp).
    const llvm::DenseSet<const clang::Stmt *> *Shared = nullptr;
    clang::Stmt **ExprRoot = nullptr; // the outermost expression's slot
    // In a parallel loop's iteration, the `{` of the loop's body, which is
    // a scope of its own (ParallelForRewriter.cpp).
    clang::SourceLocation IterationBody;
    // A constructor's member initialisers, where the object's own reducer
    // members are its storage (ReducerMembers.cpp).
    bool ConstructorInits = false;
  };
  void walk(clang::Stmt *&S, BodyWalk &Walk);
  void walkNullStatement(clang::Stmt *&S, BodyWalk &Walk);
  void noteStatement(clang::Stmt *&S, BodyWalk &Walk);
  void walkByKind(clang::Stmt *&S, BodyWalk &Walk);
  void walkNested(clang::Stmt *S, unsigned &Depth, BodyWalk &Walk);
  void walkBlock(clang::Stmt *&S, BodyWalk &Walk);
  void matchDeclaration(clang::DeclStmt *DS, BodyWalk &Walk);
  void matchExpression(clang::Stmt *&S, BodyWalk &Walk);
  void walkChildren(clang::Stmt *S, BodyWalk &Walk);
  void walkScope(clang::Stmt *&S, BodyWalk &Walk);
  static void moveSlots(const clang::CompoundStmt *From,
                        clang::CompoundStmt *To,
                        llvm::ArrayRef<unsigned> NewIndex, BodyWalk &Walk);
  bool walkStatement(clang::Stmt *&S, BodyWalk &Walk);

  // ImplicitSyncs.cpp
  void walkLambda(clang::LambdaExpr *Lambda, BodyWalk &Outer);
  void noteSpawnResult(const clang::Expr *Destination, const Mark &M,
                       BodyWalk &Walk);
  void noteSpawnResult(const clang::VarDecl *Var, const Mark &M,
                       BodyWalk &Walk);
  void checkScopeEnd(clang::CompoundStmt *Scope, BodyWalk &Walk);
  void finishBody(clang::CompoundStmt *Body, BodyWalk &Walk);
  void syncAtEnd(clang::CompoundStmt *Block);
  void walkTry(clang::CXXTryStmt *Try, BodyWalk &Walk);
  void warning(clang::SourceLocation Loc, llvm::StringRef Msg);
  static unsigned syncsSoFar(const BodyWalk &Walk);

  // ScopeSyncs.cpp
  bool openScope(clang::CompoundStmt *Block, BodyWalk &Walk);
  void closeScope(clang::CompoundStmt *Block, BodyWalk &Walk);
  void noteScopeJump(clang::Stmt *&S, BodyWalk &Walk);
  void syncBefore(clang::Stmt *&S);
  static bool leaves(const ScopeExit &Exit, const OpenScope &Scope);

  // UnsupportedConstructs.cpp
  void noteUnsupported(clang::Stmt *S, BodyWalk &Walk);
  void reportUnsupported(BodyWalk &Walk);

  // ParallelForRewriter.cpp
  bool walkParallelLoop(clang::Stmt *&S, BodyWalk &Walk);
  static clang::SourceLocation forLoc(const clang::Stmt *S);
  bool mayRewriteLoop(const LoopProblems &Problems, const Mark &M,
                      const BodyWalk &Walk);
  clang::CompoundStmt *buildParallelLoop(const LoopForm &Form,
                                         clang::Expr *Grain,
                                         llvm::ArrayRef<clang::Stmt *> Head,
                                         clang::Stmt *Body, BodyWalk &Walk);
  bool rewriteParallelLoop(clang::Stmt *&S, clang::ForStmt *Loop,
                           clang::Expr *Grain, const Mark &M, BodyWalk &Walk);
  bool rewriteRangeLoop(clang::Stmt *&S, clang::CXXForRangeStmt *Loop,
                        clang::Expr *Grain, const Mark &M, BodyWalk &Walk);
  std::string notRandomAccess(clang::QualType Iterator) const;
  clang::CompoundStmt *walkIteration(llvm::ArrayRef<clang::Stmt *> Head,
                                     clang::Stmt *Body, BodyWalk &Outer);
  clang::DeclStmt *declaration(clang::VarDecl *Var);
  bool headerSpawns(const clang::Stmt *S);
  const PforCallees &pforCallees();

  // PatternSharing.cpp
  static void collectPatternNodes(const clang::FunctionDecl *FD,
                                  llvm::DenseSet<const clang::Stmt *> &Nodes);
  clang::Stmt *copyNode(clang::Stmt *S);
  bool isShared(const clang::Stmt *S, const BodyWalk &Walk) const;
  void ownStatement(clang::Stmt *&S, BodyWalk &Walk);
  clang::Stmt *ownPath(clang::Stmt *&Slot, const clang::Stmt *Target,
                       BodyWalk &Walk);

  // ReturnSpawns.cpp
  Mark *returnedSpawn(const clang::ReturnStmt *Return, const BodyWalk &Walk);
  bool splitSpawningReturn(clang::Stmt *&S, BodyWalk &Walk);

  // AssignSpawns.cpp
  /// A spawned call and what it is called on, as the helper receives it.
  struct AssignedCall {
    clang::CallExpr *CE = nullptr;           // null: cannot be moved
    clang::FunctionDecl *Direct = nullptr;   // a direct call
    clang::CXXMethodDecl *Method = nullptr;  // a member or operator() call
    clang::NestedNameSpecifierLoc Qualifier; // `B::` in `obj.B::m()`
    clang::Expr *Receiver = nullptr; // the object, or a function pointer
    bool ReceiverIsPointer = false;
    unsigned FirstArg = 0; // an operator() call's object is argument 0
  };
  const clang::CXXOperatorCallExpr *classAssignment(const clang::Expr *Root,
                                                    const clang::Expr *Inner);
  bool needsAssignHelper(const clang::CXXOperatorCallExpr *Assign);
  AssignedCall assignedCall(clang::CallExpr *CE);
  clang::Expr *receiverPointer(const AssignedCall &Call);
  clang::CXXMethodDecl *declareAssignHelper(llvm::ArrayRef<clang::QualType> Params,
                                            clang::SourceLocation Loc,
                                            BodyWalk &Walk);
  clang::Expr *forwardParameter(clang::ParmVarDecl *P, const clang::Expr *Orig);
  clang::Expr *memberOf(clang::ParmVarDecl *P, clang::CXXMethodDecl *Method,
                        clang::NestedNameSpecifierLoc Qualifier);
  bool defineAssignHelper(clang::CXXMethodDecl *Run, const AssignedCall &Call,
                          const clang::CXXOperatorCallExpr *Assign);
  void spawnAssignment(const clang::CXXOperatorCallExpr *Assign,
                       clang::CallExpr *CE, const Mark &M, BodyWalk &Walk);
  // ReducerTypes.cpp
  /// A cilk_reducer's identity and reduce.
  struct ReducerMonoid {
    clang::FunctionDecl *Identity;
    clang::FunctionDecl *Reduce;
  };
  bool hasAnnotation(clang::QualType T, bool Declared) const;
  bool isReducerType(clang::QualType T) const;
  bool isReducerPointer(clang::QualType T) const;
  bool isReducerReference(clang::QualType T) const;
  std::optional<ReducerMonoid> reducerMonoid(const ReducerAnnotation &Site);
  clang::FunctionDecl *annotatedFunction(clang::Expr *Arg,
                                         const ReducerAnnotation &Site) const;
  bool hasCallbacks(const ReducerAnnotation &Site) const;
  std::optional<ReducerMonoid> pointeeMonoid(const clang::Expr *Pointer,
                                             clang::SourceLocation Use);
  bool completeReducerType(clang::QualType T, clang::SourceLocation Use);
  bool mentionsReducer(const clang::Stmt *S) const;
  bool rewritableReducer(const clang::VarDecl *Var) const;
  bool rewritableDeref(const clang::Expr *Pointer) const;
  void checkReducerCaptures(const clang::LambdaExpr *Lambda);
  void checkReducerDeclaration(const clang::DeclaratorDecl *D);
  /// Whether a spawned call's callee can be called through the spawn
  /// marker; the error at \p M if not.
  bool spawnableCallee(const clang::CallExpr *CE, const Mark &M);
  /// Notes a reducer data member for finishReducerMembers; in C, where no
  /// constructor would register it, the error.
  void noteReducerMember(const clang::FieldDecl *F);

  /// The spawn mark targeting \p Loc, unless it is suppressed.
  Mark *spawnMark(clang::SourceLocation Loc) {
    Mark *M = Marks.find(MarkKind::Spawn, Loc);
    return M && !SuppressedMarks.count(M) ? M : nullptr;
  }

  // SpawnStatements.cpp
  bool isSpawnedStatement(const clang::Stmt *S) const;
  void takeMark(Mark &M, BodyWalk &Walk);
  bool outlineSpawnedStatement(clang::Stmt *&S, BodyWalk &Walk);
  bool outlineSpawnedExpression(clang::Stmt *&S, Mark &M, BodyWalk &Walk);
  bool isCompilerBuiltinCall(const clang::CallExpr *CE) const;
  clang::Expr *outline(clang::Stmt *&S, Mark &M, clang::QualType Result,
                       BodyWalk &Walk);
  clang::TypeSourceInfo *parameterTypeInfo(clang::ValueDecl *D,
                                           clang::QualType T,
                                           clang::SourceLocation Loc);

  // ReducerMembers.cpp
  bool isReducerMember(const clang::FieldDecl *F) const;
  /// The reducer member \p ME names, or null.
  const clang::FieldDecl *reducerField(const clang::MemberExpr *ME) const;
  bool rewritableMember(const clang::MemberExpr *ME) const;
  llvm::SmallVector<std::pair<clang::FieldDecl *, ReducerMonoid>, 2>
  reducerMembers(const clang::CXXRecordDecl *Class);
  bool containsReducerMembers(clang::QualType T);
  clang::Expr *memberOfThis(clang::CXXMethodDecl *Method, clang::FieldDecl *F,
                            clang::SourceLocation Loc);
  void addReducerLifetimes(clang::CXXMethodDecl *Method);
  void walkConstructorInits(clang::CXXConstructorDecl *Ctor, bool Dependent);
  void checkReducerClass(const clang::CXXRecordDecl *Class);
  /// The error at a template argument that is a reducer type
  /// (`Box<long cilk_reducer(I, R)>`).
  void checkReducerTemplateArgument(const clang::TemplateArgumentLoc &Arg);

  // ReducerUses.cpp
  void makeReducerFunctions();
  clang::Expr *hyperCall(clang::FunctionDecl *Fn, clang::Expr *Key,
                         clang::QualType T, const ReducerMonoid &M,
                         clang::SourceLocation Loc);
  clang::Expr *reducerView(clang::Expr *Key, clang::QualType T,
                           const ReducerMonoid &M, clang::SourceLocation Loc);
  clang::Expr *annotatedView(clang::Expr *Key, clang::QualType T,
                             const ReducerAnnotation &Site,
                             clang::SourceLocation Loc);
  clang::Expr *addressOf(clang::Expr *LValue);
  void noteReducerKey(clang::QualType Destination, const clang::Expr *Value);
  void noteReducerKey(const clang::VarDecl *Destination,
                      const clang::Expr *Value);
  void noteReferredReducer(const clang::Expr *Value);
  void noteConstructorKeys(const clang::CXXConstructExpr *Construct);
  void noteListKeys(const clang::InitListExpr *List);
  void noteReducerKeys(const clang::Stmt *S, const BodyWalk &Walk);
  bool rewriteReducerUse(clang::Stmt *&S, BodyWalk &Walk);
  bool rewriteMemberUse(clang::Stmt *&S, clang::MemberExpr *ME,
                        BodyWalk &Walk);
  bool rewriteStaticMemberUse(clang::Stmt *&S, clang::MemberExpr *ME,
                              clang::VarDecl *Var, BodyWalk &Walk);
  bool rewriteReferenceUse(clang::Stmt *&S, clang::DeclRefExpr *Ref,
                           const clang::VarDecl *Var);
  clang::VarDecl *unregisteringKey(clang::DeclContext *DC, clang::Expr *Init,
                                   clang::SourceLocation Loc);
  void registerLocalReducers(clang::Stmt *&S, BodyWalk &Walk);
  static bool copiedPerCall(const clang::Stmt *S);
  clang::Expr *odrUse(clang::DeclRefExpr *Ref);
  void forgetConstantValues(clang::Stmt *S);
  void rewriteDefaultArgument(clang::ParmVarDecl *P);

  // SpawnRewriter.cpp
  void handleSpawnExpr(clang::Expr *E, const Mark &M, BodyWalk &Walk);
  void handleSpawnDecl(clang::VarDecl *VD, const Mark &M, BodyWalk &Walk);
  void spawnCall(clang::CallExpr *CE, const Mark &M, bool InitializesVariable,
                 BodyWalk &Walk);
  clang::CallExpr *ownSpawnedCall(clang::Stmt *&Root, const clang::CallExpr *CE,
                                  const Mark &M, BodyWalk &Walk);
  clang::Expr *makeSyncCall(clang::SourceLocation Loc);
  clang::Expr *makeSpawnEndCall(clang::SourceLocation Loc);
  clang::Expr *spawnLocation(clang::SourceLocation Spawn);
  /// What a spawn marker carries: where the spawn was written, and the
  /// call's argument layout when it has one (ArgumentLayout.cpp).
  struct SpawnSite {
    clang::SourceLocation Written;
    clang::Expr *Layout;
  };
  clang::Expr *markerCall(clang::FunctionDecl *Marker, clang::Expr *Ptr,
                          const SpawnSite &Site);
  clang::Expr *markPointer(clang::Expr *Ptr, const SpawnSite &Site);
  clang::Expr *markObjectGLValue(clang::Expr *Object, const SpawnSite &Site);
  void markObject(clang::MemberExpr *ME, const SpawnSite &Site);
  void markObject(clang::BinaryOperator *PM, const SpawnSite &Site);

  // ArgumentLayout.cpp
  clang::Expr *argumentLayout(const clang::CallExpr *CE);
  clang::Expr *functionPointer(clang::FunctionDecl *FD, clang::SourceLocation Loc);
  clang::FunctionDecl *makeMarker(llvm::StringRef Name, clang::QualType Ret,
                                  llvm::ArrayRef<clang::QualType> Params,
                                  bool MayThrow = false, bool Variadic = false);
  void error(clang::SourceLocation Loc, llvm::StringRef Msg);
  clang::SourceLocation fileLoc(clang::SourceLocation Loc) const;

  clang::ASTContext &Ctx;
  clang::Sema *SemaRef = nullptr;
  /// An annotation's dependent argument, instantiated for one alias
  /// template specialization or function template instantiation
  /// (annotatedFunction()).
  mutable llvm::DenseMap<std::pair<const clang::Expr *, const void *>,
                         clang::FunctionDecl *>
      Instantiated;
  MarkTable &Marks;
  PforCallees Pfor; // created with the first parallel loop
  clang::FunctionDecl *SpawnMarker;
  clang::FunctionDecl *SyncMarker;
  clang::FunctionDecl *ObjectMarker;
  clang::FunctionDecl *SpawnEndMarker;
  // The runtime's reducer-variable calls, made at the first reducer
  // (ReducerUses.cpp).
  clang::FunctionDecl *HyperLookup = nullptr;
  clang::FunctionDecl *HyperRegister = nullptr;
  clang::FunctionDecl *HyperUnregister = nullptr;
  // The `&x` of reducers that are passed on as reducers, not views.
  llvm::DenseSet<const clang::Expr *> ReducerKeys;
  // A reducer or a reducer pointer was declared: the guard has work.
  bool SawReducer = false;
  bool SawReducerMember = false; // finishReducerMembers has work
  unsigned SpawnedStatements = 0; // functions made of spawned statements
  // The marks the walk must not take as spawns: a statement's own, while
  // the function made of it is walked.
  llvm::SmallPtrSet<const Mark *, 4> SuppressedMarks;
  // Whether making a class runs code of a class with reducer members
  // (containsReducerMembers).
  llvm::DenseMap<const clang::CXXRecordDecl *, bool> ClassesWithReducers;
  // Parameters whose default argument has been walked (once: it is shared
  // by every call).
  llvm::DenseSet<const clang::ParmVarDecl *> WalkedDefaults;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 32> WalkedFunctions;
  llvm::SmallPtrSet<const clang::CallExpr *, 32> SpawnedCalls;
  llvm::DenseSet<clang::SourceLocation> Warned; // once per instantiated mark
  // Assignment helpers declared so far in each function (AssignSpawns.cpp).
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> AssignHelpers;
  std::set<std::pair<unsigned, std::string>> Errors; // reported once each
};

} // namespace weft

#endif // WEFT_PLUGIN_SPAWNREWRITER_H
