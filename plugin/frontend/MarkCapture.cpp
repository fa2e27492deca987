//===- MarkCapture.cpp - Attribute and pragma hooks that record marks -----===//
//
// Three spellings reach the same MarkTable:
//   [[weft::spawn]] x = f(a);   [[weft::spawn]] long x = f(a);   [[weft::sync]];
//   [[weft::scope]] { ... }
//   x = cilk_spawn f(a);        cilk_sync;    cilk_scope { ... }
//                               (headers: _Pragma("weft spawn"), ...)
//   #pragma weft spawn          (on the line before the statement)
// and `cilk_for` (`_Pragma("weft for") for`) marks the loop whose `for`
// keyword follows; ParallelForMarks.cpp has the other loop spellings.
// A statement attribute is dropped once recorded (Clang has no statement
// attribute hook for plugins; diagAppertainsToStmt sees the real node), so no
// unknown-attribute warning and no AttributedStmt remain.
//
// A pragma's target is the token the parser sees right after it, taken from
// the preprocessor's token stream (a token watcher), not from the file's
// text: when the keyword is written inside a macro (`#define SPAWN_FIB(x, n)
// x = cilk_spawn fib(n)`), that token comes from the macro's expansion, and
// its location, unique to this expansion, is where the spawned call begins.
//
//===----------------------------------------------------------------------===//

#include "frontend/Diagnostics.h"
#include "frontend/SpawnMarks.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace weft {
namespace {

/// Where an error about a mark goes: the keyword itself, or the use of the
/// macro it was written in.
SourceLocation fileLoc(const SourceManager &SM, SourceLocation Loc) {
  return SM.getExpansionLoc(Loc);
}

struct SpawnAttrInfo : public ParsedAttrInfo {
  SpawnAttrInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "weft::spawn"},
                                     {ParsedAttr::AS_C23, "weft::spawn"}};
    Spellings = S;
    IsStmt = 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    if (isa<VarDecl>(D) && !isa<ParmVarDecl>(D))
      return true;
    reportError(
        S.getDiagnostics(), A.getLoc(),
        "'weft::spawn' applies to a statement or to a variable declaration "
        "initialised by a call");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    MarkTable::get().add(MarkKind::Spawn, D->getLocation(),
                         fileLoc(S.getSourceManager(), A.getLoc()));
    return AttributeApplied;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    MarkTable::get().add(MarkKind::Spawn, St->getBeginLoc(),
                         fileLoc(S.getSourceManager(), A.getLoc()));
    return false; // recorded; drop the attribute silently
  }
};

struct SyncAttrInfo : public ParsedAttrInfo {
  SyncAttrInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "weft::sync"},
                                     {ParsedAttr::AS_C23, "weft::sync"}};
    Spellings = S;
    IsStmt = 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *) const override {
    reportError(S.getDiagnostics(), A.getLoc(),
                "'weft::sync' applies to an empty statement: "
                "write '[[weft::sync]];'");
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    if (!isa<NullStmt>(St)) {
      reportError(S.getDiagnostics(), A.getLoc(),
                  "'weft::sync' applies to an empty statement: "
                  "write '[[weft::sync]];'");
      return false;
    }
    MarkTable::get().add(MarkKind::Sync, St->getBeginLoc(),
                         fileLoc(S.getSourceManager(), A.getLoc()));
    return false;
  }
};

struct ScopeAttrInfo : public ParsedAttrInfo {
  ScopeAttrInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "weft::scope"},
                                     {ParsedAttr::AS_C23, "weft::scope"}};
    Spellings = S;
    IsStmt = 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *) const override {
    reportError(S.getDiagnostics(), A.getLoc(),
                "'weft::scope' applies to a block: write "
                "'[[weft::scope]] { ... }'");
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    if (!isa<CompoundStmt>(St)) {
      reportError(S.getDiagnostics(), A.getLoc(),
                  "'weft::scope' applies to a block: write "
                  "'[[weft::scope]] { ... }'");
      return false;
    }
    MarkTable::get().add(MarkKind::Scope, St->getBeginLoc(),
                         fileLoc(S.getSourceManager(), A.getLoc()));
    return false;
  }
};

/// Pragmas seen whose target token has not come yet.
struct PendingMark {
  MarkKind Kind;
  SourceLocation Written;
};
llvm::SmallVector<PendingMark, 1> Pending;

tok::TokenKind LastKind = tok::unknown;

/// Gives the pending marks the token the parser sees next as their target,
/// and remembers its kind (lastTokenKind). Runs for every token the
/// preprocessor hands out at the outermost level, in stream order, after
/// all macro expansion: never for the tokens of the pragma itself, which
/// its handler lexes from inside the preprocessor.
void takeTarget(Preprocessor &PP, const Token &Tok) {
  LastKind = Tok.getKind();
  if (Pending.empty())
    return;
  for (const PendingMark &P : Pending) {
    if (Tok.is(tok::eof)) {
      reportError(PP.getDiagnostics(), P.Written,
                  "spawn, sync or scope mark at end of file");
      continue;
    }
    MarkTable::get().add(P.Kind, Tok.getLocation(), P.Written);
  }
  Pending.clear();
}

/// `#pragma weft spawn|sync|scope|for`, also reached through _Pragma from
/// the keyword macros. The target is the first token the parser sees after
/// the pragma: `f` in `x = cilk_spawn f(a)`, wherever the keyword and the
/// call were written; the statement's first token for the directive form;
/// the block's `{` for a scope; the loop's `for` for a cilk_for.
class WeftPragmaHandler : public PragmaHandler {
public:
  WeftPragmaHandler() : PragmaHandler("weft") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &) override {
    Token Word;
    PP.Lex(Word);
    std::optional<MarkKind> Kind;
    if (Word.is(tok::identifier)) {
      StringRef Name = Word.getIdentifierInfo()->getName();
      if (Name == "spawn")
        Kind = MarkKind::Spawn;
      else if (Name == "sync")
        Kind = MarkKind::Sync;
      else if (Name == "scope")
        Kind = MarkKind::Scope;
    } else if (Word.is(tok::kw_for)) {
      Kind = MarkKind::For;
    }
    Token Tok = Word;
    while (Tok.isNot(tok::eod))
      PP.Lex(Tok);
    if (!Kind) {
      reportError(PP.getDiagnostics(), Word.getLocation(),
                  "expected 'spawn', 'sync', 'scope' or 'for' after "
                  "'#pragma weft'");
      return;
    }
    Pending.push_back({*Kind, fileLoc(PP.getSourceManager(), Introducer.Loc)});
  }
};

} // namespace

void watchTokens(Preprocessor &PP) {
  Pending.clear();
  LastKind = tok::unknown;
  // Nothing else in a compilation watches tokens (only tools such as
  // clangd's token collector do).
  PP.setTokenWatcher([&PP](const Token &Tok) { takeTarget(PP, Tok); });
}

tok::TokenKind lastTokenKind() { return LastKind; }

} // namespace weft

static ParsedAttrInfoRegistry::Add<weft::SpawnAttrInfo>
    SpawnAttr("weft-spawn", "[[weft::spawn]]: spawn the marked call");
static ParsedAttrInfoRegistry::Add<weft::SyncAttrInfo>
    SyncAttr("weft-sync", "[[weft::sync]]: wait for spawned children");
static ParsedAttrInfoRegistry::Add<weft::ScopeAttrInfo>
    ScopeAttr("weft-scope", "[[weft::scope]] { ... }: sync at the block's end");
static PragmaHandlerRegistry::Add<weft::WeftPragmaHandler>
    WeftPragma("weft", "#pragma weft spawn|sync|scope|for");
