//===- KnownAllocators.h - Library allocators the race mode recognises ----===//
//
// A library's pool allocator recycles blocks between logically parallel
// strands, which the race detector would report as races unless it knows
// the pool for an allocator. A library can say so itself (<weft/race.h>);
// for the libraries in KnownAllocators.cpp's table, whose code cannot be
// changed, the front end recognises the entry points by name in race mode
// and marks their definitions for the IR pass that models them
// (analysis/RaceAllocators.cpp), through the annotation of
// shared/AllocatorAnnotation.h.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_KNOWNALLOCATORS_H
#define WEFT_PLUGIN_KNOWNALLOCATORS_H

namespace clang {
class ASTContext;
class Decl;
} // namespace clang

namespace weft {

/// Marks every definition in \p D (a function, or a namespace or linkage
/// specification holding definitions) that is a known library allocator's
/// entry point. Run on each declaration before CodeGen sees it.
void markKnownAllocators(clang::Decl *D, clang::ASTContext &Ctx);

} // namespace weft

#endif // WEFT_PLUGIN_KNOWNALLOCATORS_H
