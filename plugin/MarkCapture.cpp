//===- MarkCapture.cpp - Attribute and pragma hooks that record marks -----===//
//
// Three spellings reach the same MarkTable:
//   [[weft::spawn]] x = f(a);   [[weft::spawn]] long x = f(a);   [[weft::sync]];
//   x = cilk_spawn f(a);        cilk_sync;    (headers: _Pragma("weft spawn"))
//   #pragma weft spawn          (on the line before the statement)
// A statement attribute is dropped once recorded (Clang has no statement
// attribute hook for plugins; diagAppertainsToStmt sees the real node), so no
// unknown-attribute warning and no AttributedStmt remain.
//
//===----------------------------------------------------------------------===//

#include "SpawnMarks.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace weft {
namespace {

SourceLocation fileLoc(const SourceManager &SM, SourceLocation Loc) {
  return SM.getExpansionLoc(Loc);
}

void error(Sema &S, SourceLocation Loc, const char *Msg) {
  DiagnosticsEngine &D = S.getDiagnostics();
  D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Msg;
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
    error(S, A.getLoc(),
          "'weft::spawn' applies to a statement or to a variable declaration "
          "initialised by a call");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    const SourceManager &SM = S.getSourceManager();
    MarkTable::get().add(MarkKind::Spawn, fileLoc(SM, D->getLocation()),
                         fileLoc(SM, A.getLoc()));
    return AttributeApplied;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    const SourceManager &SM = S.getSourceManager();
    MarkTable::get().add(MarkKind::Spawn, fileLoc(SM, St->getBeginLoc()),
                         fileLoc(SM, A.getLoc()));
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
    error(S, A.getLoc(), "'weft::sync' applies to an empty statement: "
                         "write '[[weft::sync]];'");
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    if (!isa<NullStmt>(St)) {
      error(S, A.getLoc(), "'weft::sync' applies to an empty statement: "
                           "write '[[weft::sync]];'");
      return false;
    }
    const SourceManager &SM = S.getSourceManager();
    MarkTable::get().add(MarkKind::Sync, fileLoc(SM, St->getBeginLoc()),
                         fileLoc(SM, A.getLoc()));
    return false;
  }
};

/// `#pragma weft spawn|sync`, also reached through _Pragma from the keyword
/// macros. The target is the first token after the pragma: after the macro
/// name for `x = cilk_spawn f(a)`, on the next line for the directive form.
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
    }
    Token Tok = Word;
    while (Tok.isNot(tok::eod))
      PP.Lex(Tok);
    DiagnosticsEngine &D = PP.getDiagnostics();
    if (!Kind) {
      D.Report(Word.getLocation(),
               D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "expected 'spawn' or 'sync' after "
                                 "'#pragma weft'"));
      return;
    }
    const SourceManager &SM = PP.getSourceManager();
    SourceLocation End = SM.getExpansionRange(Word.getLocation()).getEnd();
    std::optional<Token> Next =
        Lexer::findNextToken(End, SM, PP.getLangOpts());
    SourceLocation Written = fileLoc(SM, Introducer.Loc);
    if (!Next || Next->is(tok::eof)) {
      D.Report(Written, D.getCustomDiagID(DiagnosticsEngine::Error,
                                          "spawn or sync mark at end of file"));
      return;
    }
    MarkTable::get().add(*Kind, fileLoc(SM, Next->getLocation()), Written);
  }
};

} // namespace
} // namespace weft

static ParsedAttrInfoRegistry::Add<weft::SpawnAttrInfo>
    SpawnAttr("weft-spawn", "[[weft::spawn]]: spawn the marked call");
static ParsedAttrInfoRegistry::Add<weft::SyncAttrInfo>
    SyncAttr("weft-sync", "[[weft::sync]]: wait for spawned children");
static PragmaHandlerRegistry::Add<weft::WeftPragmaHandler>
    WeftPragma("weft", "#pragma weft spawn|sync");
