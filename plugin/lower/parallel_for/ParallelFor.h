//===- ParallelFor.h - cilk_for: what the front end leaves for the pass ---===//
//
// The front end (ParallelForRewriter.cpp) turns every parallel loop into a
// canonical serial loop over an iteration index k in [0, n), bracketed by
// calls the IR pass finds (`loc` is the raw clang::SourceLocation of the
// loop's `for`, which also tells one loop's markers from another's):
//
//   __weft_pfor(n, grain, loc);                         // before the loop
//   for (unsigned long long k = __weft_pfor_lo(loc);
//        k < __weft_pfor_hi(loc); ++k) { ...one iteration... }
//   __weft_pfor_end(loc);                               // after it
//
// The pass (ParallelFor.cpp) outlines the loop into a function over a
// subrange [lo, hi) and replaces it with a call to the runtime's
// __weft_parallel_for (runtime/parallel_for.cpp), which splits [0, n)
// recursively with spawns. In C++ with exceptions an iteration's exception
// is caught inside the loop (a catch-all calling __weft_pfor_caught(slot,
// loc), which the pass turns into the runtime's __weft_pfor_catch(slot))
// and kept in a slot of the parent, then rethrown after the loop
// (__weft_pfor_rethrow).
//
// Only LLVM types cross this header, so that the pass builds without Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_PARALLELFOR_H
#define WEFT_PLUGIN_PARALLELFOR_H

namespace llvm {
class Module;
}

namespace weft {

// Placeholders: the pass replaces every one (the runtime's own entries,
// __weft_parallel_for, __weft_pfor_catch and __weft_pfor_rethrow, are in
// weft/runtime_abi.def).
inline constexpr const char *PforMarkerName = "__weft_pfor";
inline constexpr const char *PforLoName = "__weft_pfor_lo";
inline constexpr const char *PforHiName = "__weft_pfor_hi";
inline constexpr const char *PforEndName = "__weft_pfor_end";
inline constexpr const char *PforCaughtName = "__weft_pfor_caught";

/// Outlines every marked loop of \p M (ParallelFor.cpp). Runs first in
/// LowerSpawnsPass, so that a loop body that spawns becomes a spawning
/// function of its own, lowered with the others. Returns true if it changed
/// anything.
bool outlineParallelLoops(llvm::Module &M);

} // namespace weft

#endif // WEFT_PLUGIN_PARALLELFOR_H
