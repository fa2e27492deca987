//===- ParallelForMarks.cpp - The spellings of a parallel loop ------------===//
//
//   cilk_for (int i = 0; i < n; ++i) body        <cilk/cilk.h>, or weft_for
//   cilk_for (auto &x : v) body                  (a range, C++)
//   [[weft::parallel_for]] for (int i = 0; i < n; ++i) body
//   #pragma cilk grainsize N                     (before either; N any
//   cilk_for (...) body                           integer expression)
//
// The keyword is `_Pragma("weft for") for` (MarkCapture.cpp); the attribute
// is recorded here. Both mark the loop by its `for` keyword's location.
//
// `#pragma cilk grainsize N` needs N as an expression of the function it
// sits in, evaluated there, and a plugin cannot parse expressions from a
// pragma. So the handler hands the parser tokens that make N part of the
// next statement without changing what that statement means:
//
//   #pragma cilk grainsize N        ==>   switch (N) default:
//   cilk_for (...) body                   cilk_for (...) body
//
// A switch with only a default label evaluates N once and runs its
// statement, which stays a single statement (an `if (c)` above it still
// governs the loop, and no `else` can attach to the switch). The `switch`
// token carries the pragma's location, which marks it; the rewriter takes
// the condition as the grain and drops the switch. Without the plugin the
// pragma is unknown and ignored: the serial elision.
//
//===----------------------------------------------------------------------===//

#include "SpawnMarks.h"

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace weft {
namespace {

void error(DiagnosticsEngine &D, SourceLocation Loc, const char *Msg) {
  D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Msg;
}

struct ParallelForAttrInfo : public ParsedAttrInfo {
  ParallelForAttrInfo() {
    static constexpr Spelling S[] = {
        {ParsedAttr::AS_CXX11, "weft::parallel_for"},
        {ParsedAttr::AS_C23, "weft::parallel_for"}};
    Spellings = S;
    IsStmt = 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *) const override {
    error(S.getDiagnostics(), A.getLoc(),
          "'weft::parallel_for' applies to a for loop");
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    SourceLocation ForLoc;
    if (const auto *For = dyn_cast<ForStmt>(St))
      ForLoc = For->getForLoc();
    else if (const auto *Range = dyn_cast<CXXForRangeStmt>(St))
      ForLoc = Range->getForLoc();
    if (ForLoc.isInvalid()) {
      error(S.getDiagnostics(), A.getLoc(),
            "'weft::parallel_for' applies to a for loop");
      return false;
    }
    MarkTable::get().add(MarkKind::For, ForLoc,
                         S.getSourceManager().getExpansionLoc(A.getLoc()));
    return false; // recorded; drop the attribute silently
  }
};

Token makeToken(Preprocessor &PP, tok::TokenKind Kind, SourceLocation Loc,
                const char *Keyword = nullptr) {
  Token T;
  T.startToken();
  T.setKind(Kind);
  T.setLocation(Loc);
  T.setLength(1);
  if (Keyword)
    T.setIdentifierInfo(PP.getIdentifierInfo(Keyword));
  return T;
}

/// Whether the parser may be inside a function body. Method bodies in a
/// class are lexed (and their pragmas handled) while the class is parsed,
/// and parsed later, so only a namespace or the file is known to be wrong.
bool mayBeInFunctionBody() {
  Sema *S = parsingSema();
  return !S || !S->CurContext || !S->CurContext->isFileContext();
}

/// `#pragma cilk grainsize N`, and OpenCilk's older `... grainsize = N`.
class CilkPragmaHandler : public PragmaHandler {
public:
  CilkPragmaHandler() : PragmaHandler("cilk") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &) override {
    DiagnosticsEngine &D = PP.getDiagnostics();
    Token Word;
    PP.Lex(Word);
    SmallVector<Token, 8> Grain;
    Token Tok = Word;
    if (Tok.isNot(tok::eod)) {
      PP.Lex(Tok);
      if (Tok.is(tok::equal))
        PP.Lex(Tok);
      for (; Tok.isNot(tok::eod); PP.Lex(Tok))
        Grain.push_back(Tok);
    }
    if (!Word.is(tok::identifier) ||
        Word.getIdentifierInfo()->getName() != "grainsize") {
      error(D, Word.getLocation(), "expected 'grainsize' after '#pragma cilk'");
      return;
    }
    if (Grain.empty()) {
      error(D, Word.getLocation(),
            "expected a grain size after '#pragma cilk grainsize'");
      return;
    }
    if (!mayBeInFunctionBody()) {
      error(D, Word.getLocation(),
            "'#pragma cilk grainsize' must come right before a cilk_for loop "
            "inside a function body");
      return;
    }
    SourceLocation Loc = Word.getLocation();
    MarkTable::get().add(MarkKind::Grainsize, Loc,
                         PP.getSourceManager().getExpansionLoc(Introducer.Loc));
    SmallVector<Token, 16> Toks;
    Toks.push_back(makeToken(PP, tok::kw_switch, Loc, "switch"));
    Toks.push_back(makeToken(PP, tok::l_paren, Loc));
    Toks.append(Grain.begin(), Grain.end());
    Toks.push_back(makeToken(PP, tok::r_paren, Loc));
    Toks.push_back(makeToken(PP, tok::kw_default, Loc, "default"));
    Toks.push_back(makeToken(PP, tok::colon, Loc));
    // The preprocessor keeps the tokens it is given, so they must be its
    // own. The grain's tokens were macro-expanded as they were lexed here.
    auto Owned = std::make_unique<Token[]>(Toks.size());
    std::copy(Toks.begin(), Toks.end(), Owned.get());
    PP.EnterTokenStream(std::move(Owned), Toks.size(),
                        /*DisableMacroExpansion=*/true, /*IsReinject=*/false);
  }
};

} // namespace
} // namespace weft

static ParsedAttrInfoRegistry::Add<weft::ParallelForAttrInfo>
    ParallelForAttr("weft-parallel-for",
                    "[[weft::parallel_for]]: run a for loop's iterations in "
                    "parallel");
static PragmaHandlerRegistry::Add<weft::CilkPragmaHandler>
    CilkPragma("cilk", "#pragma cilk grainsize N");
