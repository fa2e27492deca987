//===- ParallelForMarks.cpp - The spellings of a parallel loop ------------===//
//
//   cilk_for (int i = 0; i < n; ++i) body        <cilk/cilk.h>, or weft_for
//   cilk_for (auto &x : v) body                  (a range, C++)
//   [[weft::parallel_for]] for (int i = 0; i < n; ++i) body
//   #pragma cilk grainsize N                     (before either; N any
//   cilk_for (...) body                           integer expression; also
//                                                 `grainsize = N`, and GCC
//                                                 Cilk Plus's `cilk_grainsize
//                                                 = N`; through _Pragma too)
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

#include "frontend/Diagnostics.h"
#include "frontend/SpawnMarks.h"

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace weft {
namespace {

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
    reportError(S.getDiagnostics(), A.getLoc(),
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
      reportError(S.getDiagnostics(), A.getLoc(),
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
/// A function's closing brace is handed to the parser while Sema is still
/// in the function, in the function's outermost scope (an inner block's
/// brace is in the block's own), so a pragma right after it is outside.
bool mayBeInFunctionBody() {
  Sema *S = parsingSema();
  if (!S || !S->CurContext)
    return true;
  if (S->CurContext->isFileContext())
    return false;
  const Scope *Current = S->getCurScope();
  bool ClosedFunction = lastTokenKind() == tok::r_brace && Current &&
                        Current->isFunctionScope();
  return !ClosedFunction;
}

/// The grain: the rest of the pragma's line, after an optional `=`.
SmallVector<Token, 8> lexGrain(Preprocessor &PP) {
  SmallVector<Token, 8> Grain;
  Token Tok;
  PP.Lex(Tok);
  if (Tok.is(tok::equal))
    PP.Lex(Tok);
  for (; Tok.isNot(tok::eod); PP.Lex(Tok))
    Grain.push_back(Tok);
  return Grain;
}

/// Checks a grainsize pragma whose `grainsize` word is at \p Loc, marks
/// it, and hands the parser `switch (Grain) default:`.
void enterGrain(Preprocessor &PP, PragmaIntroducer Introducer,
                SourceLocation Loc, ArrayRef<Token> Grain) {
  // Preprocessing alone (-E, -M) has no parser to hand a switch to.
  if (!parsingSema())
    return;
  DiagnosticsEngine &D = PP.getDiagnostics();
  if (Grain.empty()) {
    reportError(D, Loc, "expected a grain size after '#pragma cilk grainsize'");
    return;
  }
  if (!mayBeInFunctionBody()) {
    reportError(
        D, Loc,
        "'#pragma cilk grainsize' must come right before a cilk_for loop "
        "inside a function body");
    return;
  }
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

/// `#pragma cilk grainsize N`, and OpenCilk's older `... grainsize = N`.
class CilkPragmaHandler : public PragmaHandler {
public:
  CilkPragmaHandler() : PragmaHandler("cilk") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &) override {
    Token Word;
    PP.Lex(Word);
    if (!Word.is(tok::identifier) ||
        Word.getIdentifierInfo()->getName() != "grainsize") {
      reportError(PP.getDiagnostics(), Word.getLocation(),
                  "expected 'grainsize' after '#pragma cilk'");
      if (Word.isNot(tok::eod))
        PP.DiscardUntilEndOfDirective();
      return;
    }
    enterGrain(PP, Introducer, Word.getLocation(), lexGrain(PP));
  }
};

/// GCC Cilk Plus's spelling, `#pragma cilk_grainsize = N`: the same.
class CilkGrainsizePragmaHandler : public PragmaHandler {
public:
  CilkGrainsizePragmaHandler() : PragmaHandler("cilk_grainsize") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &Name) override {
    enterGrain(PP, Introducer, Name.getLocation(), lexGrain(PP));
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
static PragmaHandlerRegistry::Add<weft::CilkGrainsizePragmaHandler>
    CilkGrainsizePragma("cilk_grainsize", "#pragma cilk_grainsize = N");
