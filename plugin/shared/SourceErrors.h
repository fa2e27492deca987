//===- SourceErrors.h - Errors from the IR pass at a spawn's source line --===//
//
// The IR pass sees errors that the front end cannot (a spawned result that
// is not stored straight into an lvalue), and without -g its instructions
// carry no source location. So the front end passes each spawn's location
// down to the pass in the spawn marker itself, as the raw encoding of its
// clang::SourceLocation:
//
//   %f = call ptr @__weft_spawn_marker(ptr @fib, i32 <raw location>)
//   %p = call ptr @__weft_spawn_object(ptr %obj, i32 <raw location>)
//
// The pass moves it onto the spawned call (the call-site attribute
// SpawnLocationAttr) and reports an error about that call through the hook
// below, which the Clang plugin sets for each compilation in which it adds
// the pass (WeftPlugin.cpp): Clang then prints file:line:col with the caret
// at the spawn. Where no hook is set (opt, with the LLVM-only pass
// library), the pass reports the error naming the function, as LLVM
// diagnostics do.
//
// Only raw numbers and LLVM types cross this header, so that the pass
// builds without Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SOURCEERRORS_H
#define WEFT_PLUGIN_SOURCEERRORS_H

#include "llvm/ADT/StringRef.h"

#include <functional>

namespace weft {

/// A spawned call's string attribute: "weft-spawn-loc"="<raw location>".
inline constexpr const char *SpawnLocationAttr = "weft-spawn-loc";

/// Reports \p Msg as an error at the source location whose raw encoding is
/// \p RawLoc. Returns false if it could not (then the caller reports the
/// error its own way).
using SourceErrorHook =
    std::function<bool(unsigned RawLoc, llvm::StringRef Msg)>;

/// The hook for the current compilation; empty unless the Clang plugin set it.
inline SourceErrorHook &sourceErrorHook() {
  static SourceErrorHook Hook;
  return Hook;
}

} // namespace weft

#endif // WEFT_PLUGIN_SOURCEERRORS_H
