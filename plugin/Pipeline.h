//===- Pipeline.h - Where Weft's IR passes run -----------------------------===//
#ifndef WEFT_PLUGIN_PIPELINE_H
#define WEFT_PLUGIN_PIPELINE_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace weft {

/// Registers Weft's IR passes for pipeline parsing (opt -passes=...):
/// "weft-lower-spawns" (and "weft-lower-spawns<workspan>"),
/// "weft-main-stack" and "weft-frame-to-stack". When \p InPipelines is set
/// (the Clang plugin), it also runs the first two at the start of every
/// default pipeline, the lowering in workspan mode if \p WorkSpan is set
/// (the standard coroutine passes then split the result), and the
/// post-split steps at its end.
void registerPasses(llvm::PassBuilder &PB, bool InPipelines,
                    bool WorkSpan = false);

} // namespace weft

#endif // WEFT_PLUGIN_PIPELINE_H
