//===- FastPathBitcode.cpp - runtime/fast_path.cpp's bitcode, embedded ----===//
//
// The build compiles runtime/fast_path.cpp to bitcode once per architecture
// the plugin serves and lists the files in fast_path_bitcodes.inc, one
// WEFT_FAST_PATH(arch, "path") line each; the bytes become part of the
// plugin, so that an installed or moved plugin needs no file beside it
// (FastPath.cpp picks the one of a module's architecture).
//
//===----------------------------------------------------------------------===//

#include "finish/PostSplit.h"

// Each file between two symbols of its own, weft_fast_path_<arch> and
// weft_fast_path_<arch>_end, in a read-only section.
#define WEFT_FAST_PATH(Arch, Path)                                             \
  __asm__(".pushsection .rodata.weft_fast_path_" #Arch ",\"a\",@progbits\n"     \
          ".p2align 3\n"                                                       \
          ".globl weft_fast_path_" #Arch "\n"                                  \
          ".hidden weft_fast_path_" #Arch "\n"                                 \
          "weft_fast_path_" #Arch ":\n"                                        \
          ".incbin \"" Path "\"\n"                                             \
          ".globl weft_fast_path_" #Arch "_end\n"                              \
          ".hidden weft_fast_path_" #Arch "_end\n"                             \
          "weft_fast_path_" #Arch "_end:\n"                                    \
          ".popsection\n");
#include "fast_path_bitcodes.inc"
#undef WEFT_FAST_PATH

#define WEFT_FAST_PATH(Arch, Path)                                             \
  extern "C" const char weft_fast_path_##Arch[];                               \
  extern "C" const char weft_fast_path_##Arch##_end[];
#include "fast_path_bitcodes.inc"
#undef WEFT_FAST_PATH

namespace weft {

llvm::ArrayRef<llvm::StringRef> embeddedFastPaths() {
  static const llvm::StringRef Bitcodes[] = {
#define WEFT_FAST_PATH(Arch, Path)                                             \
  llvm::StringRef(weft_fast_path_##Arch,                                       \
                  weft_fast_path_##Arch##_end - weft_fast_path_##Arch),
#include "fast_path_bitcodes.inc"
#undef WEFT_FAST_PATH
  };
  return Bitcodes;
}

} // namespace weft
