//===- next_symbol.h - glibc's own function behind one the runtime defines ===//
//
// The race runtime defines C library functions in front of glibc's (free,
// the lock functions, pthread_once, the string functions) and calls
// glibc's own from them, found with dlsym(RTLD_NEXT), which also resolves
// glibc's per-CPU variants.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_NEXT_SYMBOL_H
#define WEFT_RUNTIME_ANALYSIS_RACE_NEXT_SYMBOL_H

#include <dlfcn.h>

namespace weft::race {

/// The next definition of \p Name, found once into \p Slot. Not a
/// function-local static: its guard may take a mutex, and the lock
/// functions are among those defined here.
template <class Fn> Fn *nextSymbol(Fn *&Slot, const char *Name) {
  if (__builtin_expect(!Slot, false))
    Slot = reinterpret_cast<Fn *>(dlsym(RTLD_NEXT, Name));
  return Slot;
}

} // namespace weft::race

/// In a function defined in front of glibc's: the code address of its
/// call, where its accesses are reported.
#define WEFT_PC __builtin_return_address(0)
/// In such a function: `Next`, glibc's function of this name and type.
#define WEFT_REAL(Name, ...)                                                   \
  using Name##Type = __VA_ARGS__;                                              \
  static Name##Type *Real_##Name;                                              \
  Name##Type *Next = ::weft::race::nextSymbol(Real_##Name, #Name)

#endif // WEFT_RUNTIME_ANALYSIS_RACE_NEXT_SYMBOL_H
