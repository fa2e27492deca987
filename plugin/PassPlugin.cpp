//===- PassPlugin.cpp - Weft's IR passes as an opt plugin, for IR tests ---===//
//
// USAGE: opt -load-pass-plugin=libWeftPass.so
//          -passes='weft-lower-spawns,coro-early,cgscc(coro-split),coro-cleanup'
//        opt -load-pass-plugin=libWeftPass.so -passes=weft-stolen-checks
//
// Pipeline.h lists the passes it registers.
//
// The Clang plugin cannot be loaded into opt (it needs Clang's symbols), so
// the IR layers' object library (plugin/CMakeLists.txt) is also linked into
// this LLVM-only library.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Config/llvm-config.h"
#if LLVM_VERSION_MAJOR >= 22 // the header moved to its own library
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Weft", WEFT_VERSION,
          [](llvm::PassBuilder &PB) { weft::registerPasses(PB, false); }};
}
