//===- SpawnMarks.cpp - Where the source asked for spawns and syncs -------===//

#include "frontend/SpawnMarks.h"

namespace weft {

MarkTable &MarkTable::get() {
  // One compiler invocation parses one translation unit; the attribute and
  // pragma registries give no per-invocation context, so the table is global.
  static MarkTable Table;
  return Table;
}

static std::pair<unsigned, unsigned> key(MarkKind Kind,
                                         clang::SourceLocation Loc) {
  return {static_cast<unsigned>(Kind), Loc.getRawEncoding()};
}

void MarkTable::add(MarkKind Kind, clang::SourceLocation Target,
                    clang::SourceLocation Written) {
  Marks.try_emplace(key(Kind, Target), Mark{Kind, Written});
}

Mark *MarkTable::find(MarkKind Kind, clang::SourceLocation Loc) {
  auto It = Marks.find(key(Kind, Loc));
  return It == Marks.end() ? nullptr : &It->second;
}

clang::Sema *&parsingSema() {
  static clang::Sema *S = nullptr;
  return S;
}

} // namespace weft
