//===- RuntimeABI.h - The runtime's entry points, as the plugin calls them ===//
//
// Every call the plugin emits into the runtime goes through this header, so
// that its name, type and attributes come from the list the runtime's own
// prototypes come from (weft/runtime_abi.def, which holds the contracts).
// A pass asks for an entry by its RuntimeFn and gets the declaration; the
// front end takes the names. No Clang dependency: both halves include it.
//
// The placeholders the passes leave for one another are not runtime entry
// points and are not here (Markers.h).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SHARED_RUNTIMEABI_H
#define WEFT_PLUGIN_SHARED_RUNTIMEABI_H

namespace llvm {
class FunctionCallee;
class FunctionType;
class LLVMContext;
class Module;
} // namespace llvm

namespace weft {

/// One runtime entry point, by its Id in weft/runtime_abi.def.
enum class RuntimeFn : unsigned {
#define WEFT_RUNTIME(Id, Name, Ret, Params, Attrs) Id,
#include "weft/runtime_abi.def"
};

/// The entries' symbols, in RuntimeFn order.
inline constexpr const char *RuntimeFnNames[] = {
#define WEFT_RUNTIME(Id, Name, Ret, Params, Attrs) #Name,
#include "weft/runtime_abi.def"
};

/// \p Fn's symbol, e.g. "__weft_push".
constexpr const char *runtimeName(RuntimeFn Fn) {
  return RuntimeFnNames[static_cast<unsigned>(Fn)];
}

/// \p Fn's type, from its C prototype in the list.
llvm::FunctionType *runtimeFunctionType(llvm::LLVMContext &C, RuntimeFn Fn);

/// Finds or declares \p Fn in \p M, with its type and the attributes the
/// list gives it (nounwind or noreturn, and zeroext on a bool result).
llvm::FunctionCallee getRuntimeFunction(llvm::Module &M, RuntimeFn Fn);

} // namespace weft

#endif // WEFT_PLUGIN_SHARED_RUNTIMEABI_H
