//===- WorkSpan.h - Calls into the work/span analysis (workspan mode) -----===//
//
// In workspan mode (`-fplugin-arg-weft-workspan`, or `weft-clang++
// --weft-workspan`), the lowering reports each spawning function's parallel
// structure to the runtime's analysis (runtime/analysis/workspan.cpp), which measures
// work, span and parallelism as Cilkscale does. Five calls, each naming the
// function instance's record by the index the first one returned:
//
//   %rec = call i32 @__weft_workspan_enter()   ; entry, after the allocas
//   call void @__weft_workspan_spawn(i32 %rec)    ; after a spawn's push,
//                                                 ; before the child
//   call void @__weft_workspan_continue(i32 %rec) ; where the parent goes on
//                                                 ; after the child returned
//   call void @__weft_workspan_sync(i32 %rec)     ; before an explicit sync
//   call void @__weft_workspan_exit(i32 %rec)     ; before each return: the
//                                                 ; implicit sync, and the end
//
// An exception that leaves a function skips its exit; the index lets the
// runtime close the records left above the next one it hears from.
//
// SpawnLowering (SpawnLowering.cpp) places the calls while it rewrites the
// function, since only it knows where a spawn's continuation starts. In
// normal mode it has no WorkSpanHooks and emits exactly what it always did.
//
// Race mode (`-fplugin-arg-weft-race`, or `weft-clang++ --weft-race`) emits
// the same five calls at the same places under the names __weft_race_enter,
// _spawn, _continue, _sync and _exit: the determinacy-race detector
// (runtime/analysis/race/) builds its series-parallel bags from the same
// strand boundaries the analysis measures. The accesses in between are
// ThreadSanitizer's instrumentation, which clang adds after Weft's passes
// (Pipeline.cpp); RaceFrame.h keeps the coroutine frame's own accesses out
// of its sight.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_WORKSPAN_H
#define WEFT_PLUGIN_WORKSPAN_H

#include "llvm/IR/DerivedTypes.h"

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace weft {

/// Which analysis the lowering reports a spawning function's structure to.
enum class Analysis {
  None,     // normal mode: no calls
  WorkSpan, // the work/span analysis, __weft_workspan_*
  Race,     // the determinacy-race detector, __weft_race_*
};

/// Module-wide preparation, once the parallel loops are outlined: loops
/// call the \p Mode splitter, and the module references the analysis so
/// that it links in even if the program never spawns.
void prepareWorkSpanModule(llvm::Module &M, Analysis Mode);

/// Emits the analysis's calls into one spawning function at a time.
class WorkSpanHooks {
public:
  /// \p Mode is WorkSpan or Race.
  WorkSpanHooks(llvm::Module &M, Analysis Mode);

  /// Opens \p F's record before \p Before, the first instruction of F's own
  /// code in the entry block.
  void enter(llvm::Instruction *Before);
  void spawn(llvm::Instruction *Before);
  void continuation(llvm::BasicBlock *Cont);
  void sync(llvm::Instruction *Before);
  void exit(llvm::Instruction *Before);

private:
  llvm::FunctionCallee Enter, Spawn, Continue, Sync, Exit;
  const char *RecordName; // the IR name of the record index
  llvm::Value *Record = nullptr; // the current function's record index
};

} // namespace weft

#endif // WEFT_PLUGIN_WORKSPAN_H
