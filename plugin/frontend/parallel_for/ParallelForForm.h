//===- ParallelForForm.h - What a parallel loop may look like -------------===//
//
// A parallel loop runs its iterations in any order, so its trip count must
// be computable before the first iteration, and no iteration may leave the
// loop or change where the next one starts. OpenCilk's rules:
//
//   cilk_for (T i = begin; i OP limit; STEP) body
//     T      an integer (not bool or an enumeration), an object pointer, or
//            (C++) a random-access iterator; declared here, one variable
//     OP     <  <=  !=  >  >=   (`limit OP i` too); limit must not use i
//     STEP   ++i  i++  --i  i--  i += s  i -= s   (s must not use i;
//            i = i + s, i = s + i and i = i - s are i += s and i -= s)
//     body   no break, return, goto or case label leading out of it (a
//            continue is fine), no assignment to i
//
//   cilk_for (init; decl : range) body     (C++; init since C++20)
//     range  its iterators random-access: `end - begin` an integer and
//            `begin + n` valid (begin and end may differ in type)
//     body   as above; decl is each iteration's own and may be changed
//
// analyzeLoopHeader and checkLoopBody report every violation at its source
// location (ParallelForRewriter.cpp turns them into errors).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_PARALLELFORFORM_H
#define WEFT_PLUGIN_PARALLELFORFORM_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace weft {

enum class LoopVarKind { Integer, Pointer, Iterator };
enum class LoopStep { Increment, Decrement, Add, Subtract };

/// A parallel loop's header, taken apart. A loop over a range reads as the
/// loop over its iterator that C++ defines it to be (analyzeRangeLoop).
struct LoopForm {
  clang::ForStmt *Loop = nullptr;   // null for a loop over a range
  clang::SourceLocation ForLoc;     // the loop's `for`, which names it
  clang::VarDecl *Var = nullptr;
  LoopVarKind Kind = LoopVarKind::Integer;
  /// The condition, read as `Var Cmp Limit` (`n > i` is `i < n`).
  clang::BinaryOperatorKind Cmp = clang::BO_LT;
  /// The limit operand as Sema left it: for a built-in comparison, already
  /// converted to the type the comparison is made in.
  clang::Expr *Limit = nullptr;
  LoopStep Step = LoopStep::Increment;
  clang::Expr *Stride = nullptr; // the s of `i += s`, `i = i - s`, ...
  /// The condition or the step held temporaries with destructors: their
  /// operands, moved into declarations, need a cleanup scope of their own.
  bool HeaderCleanups = false;
};

/// What the canonical loop calls (ParallelFor.h names them;
/// ParallelForBuild.h shows where).
struct PforCallees {
  clang::FunctionDecl *Marker = nullptr, *Lo = nullptr, *Hi = nullptr,
                      *End = nullptr, *Catch = nullptr, *Rethrow = nullptr;
};

struct LoopProblem {
  clang::SourceLocation Loc;
  std::string Msg;
};
using LoopProblems = llvm::SmallVector<LoopProblem, 2>;

/// Takes the header of \p Loop apart, or reports why it cannot be run in
/// parallel. In a template pattern (\p Dependent) only the declaration is
/// checked; each instantiation is checked in full.
std::optional<LoopForm> analyzeLoopHeader(clang::ASTContext &Ctx,
                                          clang::ForStmt *Loop, bool Dependent,
                                          LoopProblems &Problems);

/// Reads `for (init; decl : range) body` as the loop over its iterator,
///   for (auto __begin = begin-expr; __begin != end-expr; ++__begin)
/// with Var the range statement's own `__begin` variable and Limit its end
/// expression, or reports why it cannot be run in parallel. Null, with no
/// problem reported, in a template pattern (each instantiation is checked)
/// and when Clang already rejected the range.
std::optional<LoopForm> analyzeRangeLoop(clang::ASTContext &Ctx,
                                         clang::CXXForRangeStmt *Loop,
                                         bool Dependent,
                                         LoopProblems &Problems);

/// Reports what in \p Body could leave the loop or change the loop
/// variable \p Var (null in a template pattern whose header failed).
void checkLoopBody(const clang::Stmt *Body, const clang::VarDecl *Var,
                   LoopProblems &Problems);

/// Reports gotos in \p FunctionBody, outside \p Loop, to labels inside it.
void checkJumpsIntoLoop(const clang::Stmt *FunctionBody,
                        const clang::Stmt *Loop, LoopProblems &Problems);

/// Whether \p E uses the variable \p Var.
bool refersTo(const clang::Stmt *S, const clang::VarDecl *Var);

} // namespace weft

#endif // WEFT_PLUGIN_PARALLELFORFORM_H
