//===- RaceScopeEnds.h - A slot's end of life, for the race detector ------===//
#ifndef WEFT_PLUGIN_ANALYSIS_RACESCOPEENDS_H
#define WEFT_PLUGIN_ANALYSIS_RACESCOPEENDS_H

namespace llvm {
class Function;
} // namespace llvm

namespace weft {

/// In race mode: after each lifetime.end in \p F (a function that spawns)
/// that has none yet, the call that tells the race detector the slot's
/// life ended there, an access that can race with a child still using it
/// (RaceScopeEnds.cpp). With \p SharedOnly (before the optimizer), only
/// for slots whose address escapes, which a child may have: the call would
/// keep any other in memory. Returns true if it changed anything.
bool reportScopeEnds(llvm::Function &F, bool SharedOnly);

} // namespace weft

#endif // WEFT_PLUGIN_ANALYSIS_RACESCOPEENDS_H
