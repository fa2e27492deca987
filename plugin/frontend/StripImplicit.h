//===- StripImplicit.h - An expression as the user wrote it ---------------===//
//
// Sema wraps what the user wrote in implicit nodes (casts, temporaries'
// materialisation, cleanups) and keeps the parentheses; the front end's
// rules look at the expression under them: in `x = (f(a))`, the call.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_STRIPIMPLICIT_H
#define WEFT_PLUGIN_STRIPIMPLICIT_H

#include "clang/AST/Expr.h"

namespace weft {

/// \p E without the implicit nodes and parentheses around it, however they
/// nest.
inline const clang::Expr *stripImplicit(const clang::Expr *E) {
  while (true) {
    const clang::Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (Next == E)
      return E;
    E = Next;
  }
}

} // namespace weft

#endif // WEFT_PLUGIN_STRIPIMPLICIT_H
