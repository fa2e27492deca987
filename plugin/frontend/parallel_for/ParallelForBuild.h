//===- ParallelForBuild.h - A parallel loop's canonical form, by Sema -----===//
//
// ParallelForRewriter.cpp replaces each parallel loop with
//
//   {
//     T __weft_begin = <the loop variable's initialiser>;
//     L __weft_limit = <the limit>;                    // evaluated once
//     S __weft_stride = <s>;                           // for i += s, i -= s
//     unsigned long long __weft_count = <trip count>;
//     void *__weft_exception = 0;                      // C++ with exceptions
//     __weft_pfor(__weft_count, <grain or 0>, loc);
//     for (unsigned long long __weft_index = __weft_pfor_lo(loc);
//          __weft_index < __weft_pfor_hi(loc); ++__weft_index)
//       try {                                          // C++ with exceptions
//         T i = __weft_begin + __weft_index * <stride>;  // the user's i
//         do body while (0);                           // continue ends it
//         <sync, if the body spawns>
//       } catch (...) { __weft_pfor_caught(&__weft_exception, loc); break; }
//     __weft_pfor_end(loc);
//     __weft_pfor_rethrow(__weft_exception);           // C++ with exceptions
//   }
//
// The trip count and each iteration's value are computed in the loop
// variable's own arithmetic, so that the parallel loop runs exactly the
// iterations the serial one would (ParallelForBuild.cpp has the formulas).
// Sema builds every expression, so that an iterator's own operators are
// found and checked as if the user had written them.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_PARALLELFORBUILD_H
#define WEFT_PLUGIN_PARALLELFORBUILD_H

#include "frontend/parallel_for/ParallelForForm.h"

#include "clang/Sema/Sema.h"

namespace weft {

class ParallelLoopBuilder {
public:
  ParallelLoopBuilder(clang::Sema &S, clang::FunctionDecl *Fn,
                      const LoopForm &F, const PforCallees &Callees);

  /// Builds everything that needs Sema: the declarations before the loop,
  /// the loop's header and calls, and the loop variable's new initialiser.
  /// \p Grain is the grain size expression, or null for the default.
  /// Returns false if Sema rejected any of it; the loop is then unchanged.
  bool build(clang::Expr *Grain);

  /// The replacement, around \p Iteration (the loop variable's declaration
  /// and the body, walked by the rewriter). The first prologueSize()
  /// statements of the returned block evaluate the user's expressions.
  clang::CompoundStmt *assemble(clang::CompoundStmt *Iteration);
  unsigned prologueSize() const { return Prologue.size(); }

private:
  bool declareHeaderValues();
  bool declareExceptionSlot();
  bool buildMarkers(clang::Expr *Grain);
  void addToPrologue(clang::VarDecl *V);

  // Integer loop variables: modular arithmetic in an unsigned type.
  bool buildIntegerLoop();
  clang::Expr *wrap(clang::Expr *E);
  clang::Expr *arith(clang::VarDecl *V);
  clang::Expr *integerStride();
  clang::Expr *integerCount();
  // Pointers and iterators: arithmetic on their differences.
  bool buildDifferenceLoop();
  clang::Expr *differenceStride();
  clang::Expr *differenceCount();
  clang::Expr *countWhenEntered(clang::Expr *Count, clang::Expr *Step);
  clang::Expr *stepCount(clang::Expr *Distance, clang::Expr *Step,
                         clang::QualType T);

  // Sema helpers; each returns null on failure and accepts null operands.
  clang::Expr *ref(clang::VarDecl *V);
  clang::Expr *to(clang::Expr *E, clang::QualType T);
  clang::Expr *lit(clang::QualType T, uint64_t V);
  clang::Expr *bin(clang::BinaryOperatorKind Op, clang::Expr *L,
                   clang::Expr *R);
  clang::Expr *negate(clang::Expr *E);
  clang::Expr *choose(clang::Expr *Cond, clang::Expr *Then, clang::Expr *Else);
  clang::Expr *call(clang::FunctionDecl *Fn,
                    llvm::ArrayRef<clang::Expr *> Args);
  clang::Expr *id();
  clang::VarDecl *declare(llvm::StringRef Name, clang::QualType T,
                          clang::Expr *Init, bool Cleanups = false);
  bool movesDown() const;

  clang::Sema &S;
  clang::ASTContext &Ctx;
  clang::FunctionDecl *Fn;
  const LoopForm &F;
  const PforCallees &Callees;
  clang::SourceLocation Loc;
  clang::VarDecl *Begin = nullptr, *Limit = nullptr, *Stride = nullptr;
  clang::VarDecl *Count = nullptr, *Exception = nullptr, *Index = nullptr;
  clang::QualType Arith, Wrap, Diff;
  clang::Expr *IterationInit = nullptr;
  clang::Expr *LoopCond = nullptr, *LoopInc = nullptr;
  clang::Expr *CatchCall = nullptr, *RethrowCall = nullptr, *EndCall = nullptr;
  llvm::SmallVector<clang::Stmt *, 8> Prologue;
};

} // namespace weft

#endif // WEFT_PLUGIN_PARALLELFORBUILD_H
