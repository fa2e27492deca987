//===- ReducerTypes.h - A reducer's annotation, as its declaration has it -===//
//
// What the rewrite of reducer uses (ReducerUses.cpp) reads from
// declarations besides SpawnRewriter's own questions: the annotation that
// holds a reducer's identity and reduce, which only the type as written
// keeps (ReducerTypes.cpp explains).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_REDUCERTYPES_H
#define WEFT_PLUGIN_REDUCERTYPES_H

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/TypeLoc.h"

namespace weft {

/// A `weft_reducer` annotation as a declaration's type reaches it: through
/// an alias template's specialization (`sum_of<long>`), whose arguments
/// the annotation's functions may depend on (`zero<T>`), or not.
struct ReducerAnnotation {
  const clang::AnnotateTypeAttr *Attr = nullptr;
  clang::TypeAliasTemplateDecl *Alias = nullptr;
  llvm::ArrayRef<clang::TemplateArgument> Args; // Alias's, as specialized
  const clang::Type *Specialization = nullptr;  // canonical, for caching
  /// The template instantiation the declaration is in, if any: a function
  /// template's (for a variable or parameter) or a class template's (for
  /// a data member). Its own `T cilk_reducer(zero<T>, plus<T>)` keeps the
  /// pattern's dependent arguments, which its template arguments
  /// instantiate.
  const clang::Decl *Instantiation = nullptr;
  explicit operator bool() const { return Attr != nullptr; }
};

/// The `weft_reducer` annotation on the type written as \p TL, or null.
const clang::AnnotateTypeAttr *reducerAttr(clang::TypeLoc TL);

/// The same, with the alias template specialization it was found through.
ReducerAnnotation reducerAnnotation(clang::TypeLoc TL);

/// The annotation on \p D's type as written, with the function or class
/// template instantiation \p D is declared in.
ReducerAnnotation reducerAnnotation(const clang::DeclaratorDecl *D);

/// The annotation on the type \p Var is a reference to, as written: a
/// reducer reference's (`T cilk_reducer(I, R) &r`).
ReducerAnnotation reducerReferenceAnnotation(const clang::VarDecl *Var);

/// The type of \p D as written, or a null TypeLoc if it has none.
clang::TypeLoc writtenType(const clang::DeclaratorDecl *D);

/// Whether the pointer \p E is reached from a variable whose pointee
/// carries another tool's annotation, not a reducer's.
bool pointsToOthers(const clang::Stmt *E);

} // namespace weft

#endif // WEFT_PLUGIN_REDUCERTYPES_H
