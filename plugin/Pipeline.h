//===- Pipeline.h - Where Weft's IR passes run -----------------------------===//
#ifndef WEFT_PLUGIN_PIPELINE_H
#define WEFT_PLUGIN_PIPELINE_H

#include "analysis/WorkSpan.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace weft {

/// Registers Weft's IR passes for pipeline parsing (opt -passes=...):
///
///   weft-lower-spawns, weft-lower-spawns<workspan>,
///   weft-lower-spawns<race>              before coro-split
///   weft-lower-spawns<twins>             twins forwarded first
///   weft-lower-spawns<pedigrees>         keeping pedigrees (Pedigrees.h)
///   weft-main-stack
///   weft-race-allocators                 library allocators' entries as
///                                        allocators (race mode only)
///   weft-inline-chunk-callees            loop chunks' sole callees inlined,
///                                        after the inliner (with the -O2
///                                        function simplification here)
///   weft-chunk-context                   loop chunks' loads of unchanging
///                                        locals of their parents hoisted
///                                        (the same)
///   weft-chunk-grain                     a minimum grain for cheap loops
///   weft-finish, weft-finish<clean-up>   all the post-split steps, in order
///   weft-finish<race>, weft-finish<clean-up;race>  the same in race mode
///   weft-inline-fast-path                each post-split step alone
///   weft-stolen-checks                   (finish/Finish.cpp says what each
///   weft-frame-to-stack                   does and in which order)
///   weft-place-dynamic-allocas
///   weft-clean-up-fast-clones
///   weft-rethrow-exits
///   weft-restore-thread-locals
///   weft-merge-clones
///   weft-race-frame                      (race mode only)
///   weft-race-vector-accesses            (race mode only)
///   weft-race-ranges                     (race mode only)
///
/// When \p InPipelines is set (the Clang plugin), it also runs the first two
/// at the start of every default pipeline (in race mode after
/// weft-race-allocators), the lowering reporting to the
/// analysis \p Mode names (the standard coroutine passes then split the
/// result), weft-inline-chunk-callees, weft-chunk-context and
/// weft-chunk-grain after the inliner at any -O but -O0,
/// and weft-finish at the end, with the clean-up at any -O but -O0.
/// With \p Pedigrees the lowering also keeps the strands' pedigrees.
void registerPasses(llvm::PassBuilder &PB, bool InPipelines,
                    Analysis Mode = Analysis::None, bool Pedigrees = false);

} // namespace weft

#endif // WEFT_PLUGIN_PIPELINE_H
