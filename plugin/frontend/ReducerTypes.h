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
#include "clang/AST/TypeLoc.h"

namespace weft {

/// The `weft_reducer` annotation on the type written as \p TL, or null.
const clang::AnnotateTypeAttr *reducerAttr(clang::TypeLoc TL);

/// The type of \p D as written, or a null TypeLoc if it has none.
clang::TypeLoc writtenType(const clang::DeclaratorDecl *D);

/// Whether the pointer \p E is reached from a variable whose pointee
/// carries another tool's annotation, not a reducer's.
bool pointsToOthers(const clang::Stmt *E);

} // namespace weft

#endif // WEFT_PLUGIN_REDUCERTYPES_H
