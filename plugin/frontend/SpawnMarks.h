//===- SpawnMarks.h - Where the source asked for spawns and syncs ---------===//
//
// The attribute and pragma hooks run while Clang parses, before the marked
// expression exists as an AST node, so they record a *target*: the source
// location where the marked expression or statement begins, exactly as the
// AST will have it (inside a macro expansion, the location of that token in
// that expansion). The rewriter later matches AST nodes against these
// targets. Template instantiation preserves locations (statement pointers
// it does not).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SPAWNMARKS_H
#define WEFT_PLUGIN_SPAWNMARKS_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class Preprocessor;
class Sema;
} // namespace clang

namespace weft {

/// Spawn and Sync mark a call and an empty statement; Scope targets the
/// `{` of the block whose end syncs (cilk_scope); For marks a loop (its
/// `for` keyword), Grainsize the `switch` that `#pragma cilk grainsize`
/// puts around one (ParallelForMarks.cpp).
enum class MarkKind { Spawn, Sync, Scope, For, Grainsize };

struct Mark {
  MarkKind Kind;
  clang::SourceLocation Written; // the keyword, pragma or attribute (or the
                                 // use of the macro it is written in)
  bool Matched = false;
};

/// All marks of one translation unit, keyed by target location.
class MarkTable {
public:
  static MarkTable &get();

  void add(MarkKind Kind, clang::SourceLocation Target,
           clang::SourceLocation Written);
  /// Returns the mark of this kind targeting \p Loc, or null.
  Mark *find(MarkKind Kind, clang::SourceLocation Loc);

  template <typename Fn> void forEachUnmatched(Fn F) const {
    for (const auto &Entry : Marks)
      if (!Entry.second.Matched)
        F(Entry.second);
  }

private:
  llvm::DenseMap<std::pair<unsigned, unsigned>, Mark> Marks;
};

/// The Sema parsing this translation unit (set by the plugin's consumer),
/// for pragma handlers that must know whether they are inside a function.
clang::Sema *&parsingSema();

/// Reports each keyword (cilk_spawn, weft_for, ...) that expands to serial
/// code instead of a mark, a precompiled header built without the plugin,
/// and preprocessed input that lost its keywords (SerialKeywords.cpp).
enum class InputKind { Source, Preprocessed, PrecompiledHeaderBuild };
void watchSerialKeywords(clang::Preprocessor &PP, InputKind Input);

/// Watches the tokens the parser receives, from before the main file is
/// entered: gives pragma marks their targets and remembers the last token
/// (MarkCapture.cpp).
void watchTokens(clang::Preprocessor &PP);

/// The kind of the last token the parser received; a pragma handler sees
/// the token before the pragma.
clang::tok::TokenKind lastTokenKind();

} // namespace weft

#endif // WEFT_PLUGIN_SPAWNMARKS_H
