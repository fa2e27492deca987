//===- VersionCheck.cpp - Refuse to run inside another LLVM major version -===//
//
// Both plugins (WeftPlugin for clang -fplugin, WeftPass for opt) belong to
// the LLVM major version they are built against (WEFT_LLVM_VERSION). Loaded
// into another version's clang, the Clang plugin does not fail cleanly on
// its own: the dynamic linker loads its libLLVM and libclang-cpp next to
// the host's and binds its LLVM calls to its own copy (each libLLVM
// versions its symbols, LLVM_19.1, LLVM_22.1) but its Clang calls to the
// host's (Debian's libclang-cpp.so.19 exports unversioned symbols, which a
// reference of either version accepts). Clang-22 with the 19 plugin, and
// clang-19 with the 22 plugin, crash in the plugin's first use of a Clang
// object. Had it bound wholly to its own copies, it would have registered
// itself where the host never looks, and the program would have built as
// its serial elision without a word. (opt refuses a pass plugin of
// another LLVM_PLUGIN_API_VERSION, which 22 raised, but that number does not
// change with every major version.)
//
// So before anything else in the library runs (a constructor of the first
// priority, ahead of the static registrations), this asks the process which
// LLVM it is: LLVMGetVersion, from LLVM's C API, whose calling convention
// does not change between versions, looked up by name in the global scope.
// The executable's own libraries come first there, ahead of those a plugin
// brings along, so the answer is the host's. On a mismatch it prints one
// line naming both versions and the fix, and exits: nothing else of the
// host can be called safely.
//
//===----------------------------------------------------------------------===//

#include "llvm/Config/llvm-config.h"

#include <cstdio>
#include <dlfcn.h>
#include <unistd.h>

// WeftPlugin names its host Clang, WeftPass (opt's plugin) LLVM.
#ifdef WEFT_CLANG_PLUGIN
#define WEFT_HOST "Clang"
#define WEFT_FIX "use it with clang-%d (this Weft's weft-clang)"
#else
#define WEFT_HOST "LLVM"
#define WEFT_FIX "use it with opt-%d"
#endif

namespace {

using GetVersionFn = void (*)(unsigned *Major, unsigned *Minor,
                              unsigned *Patch);

__attribute__((constructor(101))) void refuseAnotherMajorVersion() {
  auto GetVersion =
      reinterpret_cast<GetVersionFn>(dlsym(RTLD_DEFAULT, "LLVMGetVersion"));
  // A host that does not export LLVM's C API cannot be asked; the plugin
  // then loads as it always did.
  if (!GetVersion)
    return;
  unsigned Major = 0, Minor = 0, Patch = 0;
  GetVersion(&Major, &Minor, &Patch);
  if (Major == LLVM_VERSION_MAJOR)
    return;
  Dl_info Self;
  const char *Path =
      dladdr(reinterpret_cast<void *>(&refuseAnotherMajorVersion), &Self) &&
              Self.dli_fname
          ? Self.dli_fname
          : "the weft plugin";
  std::fprintf(stderr,
               "weft: %s is built for " WEFT_HOST " %d but was loaded into "
               WEFT_HOST " %u; " WEFT_FIX ", or a Weft built with "
               "-DWEFT_LLVM_VERSION=%u\n",
               Path, LLVM_VERSION_MAJOR, Major, LLVM_VERSION_MAJOR, Major);
  std::fflush(stderr);
  _exit(1);
}

} // namespace
