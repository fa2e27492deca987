//===- RuntimeABI.cpp - LLVM declarations from weft/runtime_abi.def -------===//
//
// Each entry's LLVM type is derived from its C prototype at compile time, so
// that the declaration the passes emit cannot drift from the runtime's
// definition: the list admits only types with one LLVM spelling each (void,
// bool, integers and pointers), and anything else fails to compile here.
//
//===----------------------------------------------------------------------===//

#include "shared/RuntimeABI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

using namespace llvm;

namespace weft {
namespace {

/// What the plugin tells LLVM about every call of an entry (the Attrs
/// column of the list).
enum RuntimeAttrs : unsigned {
  NOUNWIND = 1, // never unwinds
  NORETURN = 2, // never returns, unwinds
  UNWINDS = 0,  // may unwind: nothing to say
  PRESERVE_MOST = 4 | NOUNWIND, // never unwinds, keeps most registers
};

/// The LLVM type of a C parameter or result type of the list.
template <typename T> Type *irType(LLVMContext &C) {
  if constexpr (std::is_void_v<T>)
    return Type::getVoidTy(C);
  else if constexpr (std::is_same_v<T, bool>)
    return Type::getInt1Ty(C);
  else if constexpr (std::is_pointer_v<T>)
    return PointerType::getUnqual(C);
  else {
    static_assert(std::is_integral_v<T>,
                  "runtime_abi.def: a type other than void, bool, an "
                  "integer or a pointer");
    return IntegerType::get(C, 8 * sizeof(T));
  }
}

/// The LLVM type of a C function type (`Ret(Params...)`).
template <typename Fn> struct IRFunctionType;
template <typename Ret, typename... Params>
struct IRFunctionType<Ret(Params...)> {
  static FunctionType *get(LLVMContext &C) {
    SmallVector<Type *, 5> ParamTypes{irType<Params>(C)...};
    return FunctionType::get(irType<Ret>(C), ParamTypes, /*isVarArg=*/false);
  }
};

unsigned runtimeAttrs(RuntimeFn Fn) {
  switch (Fn) {
#define WEFT_RUNTIME(Id, Name, Ret, Params, Attrs)                             \
  case RuntimeFn::Id:                                                          \
    return Attrs;
#include "weft/runtime_abi.def"
  }
  llvm_unreachable("not an entry of runtime_abi.def");
}

} // namespace

FunctionType *runtimeFunctionType(LLVMContext &C, RuntimeFn Fn) {
  switch (Fn) {
#define WEFT_RUNTIME(Id, Name, Ret, Params, Attrs)                             \
  case RuntimeFn::Id:                                                          \
    return IRFunctionType<Ret Params>::get(C);
#include "weft/runtime_abi.def"
  }
  llvm_unreachable("not an entry of runtime_abi.def");
}

FunctionCallee getRuntimeFunction(Module &M, RuntimeFn Fn) {
  FunctionType *Type = runtimeFunctionType(M.getContext(), Fn);
  FunctionCallee Callee = M.getOrInsertFunction(runtimeName(Fn), Type);
  auto *Decl = dyn_cast<Function>(Callee.getCallee());
  if (!Decl)
    return Callee;
  unsigned Attrs = runtimeAttrs(Fn);
  if (Attrs & NOUNWIND)
    Decl->setDoesNotThrow();
  if (Attrs & NORETURN)
    Decl->setDoesNotReturn();
  if ((Attrs & PRESERVE_MOST) == PRESERVE_MOST)
    Decl->setCallingConv(CallingConv::PreserveMost);
  // As Clang declares a C function returning bool (the psABI's rule).
  if (Type->getReturnType()->isIntegerTy(1))
    Decl->addRetAttr(Attribute::ZExt);
  return Callee;
}

} // namespace weft
