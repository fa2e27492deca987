//===- Diagnostics.h - The front end's errors and warnings ----------------===//
//
// Weft's messages are its own text, not entries of Clang's catalogue: each
// is a custom diagnostic whose format is "%0" and whose one argument is the
// message, so that it prints exactly as written, a '%' in it included.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_DIAGNOSTICS_H
#define WEFT_PLUGIN_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"

namespace weft {

inline void report(clang::DiagnosticsEngine &D,
                   clang::DiagnosticsEngine::Level Level,
                   clang::SourceLocation Loc, llvm::StringRef Msg) {
  D.Report(Loc, D.getCustomDiagID(Level, "%0")) << Msg;
}

inline void reportError(clang::DiagnosticsEngine &D, clang::SourceLocation Loc,
                        llvm::StringRef Msg) {
  report(D, clang::DiagnosticsEngine::Error, Loc, Msg);
}

inline void reportWarning(clang::DiagnosticsEngine &D,
                          clang::SourceLocation Loc, llvm::StringRef Msg) {
  report(D, clang::DiagnosticsEngine::Warning, Loc, Msg);
}

} // namespace weft

#endif // WEFT_PLUGIN_DIAGNOSTICS_H
