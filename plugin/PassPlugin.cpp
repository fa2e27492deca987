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
#include "llvm/Passes/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Weft", WEFT_VERSION,
          [](llvm::PassBuilder &PB) { weft::registerPasses(PB, false); }};
}
