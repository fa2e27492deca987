//===- SerialKeywords.cpp - No keyword silently turns into serial code ----===//
//
// With the plugin, <weft/weft.h> (which <cilk/cilk.h> includes) defines the
// keywords as pragmas only if __weft__ was defined when it was included;
// otherwise it gives the serial elision's definitions, and a program that
// was meant to run in parallel compiles into plain calls and loops without
// a word. The plugin defines __weft__ before anything else the compilation
// reads (WeftPlugin.cpp), so this happens only where something undid it or
// came before it: `-U__weft__`, an `#undef`, or a precompiled header built
// without the plugin. Code that defines its own serial fallbacks
// (`#define cilk_spawn`, `#define cilk_for for`) is the same trap.
//
// So the plugin watches every expansion of a keyword macro:
//
//   cilk_spawn -> weft_spawn -> _Pragma("weft spawn")   a spawn: fine
//   cilk_spawn -> weft_spawn -> (nothing)               weft.h's serial
//                                                       definition: error
//   cilk_spawn -> (nothing), cilk_for -> for            the program's own
//                                                       serial definition:
//                                                       warning
//
// An expansion into another keyword macro (cilk_spawn into weft_spawn) is
// judged when that one expands. A precompiled header is checked once, as
// the main file starts: one that included weft.h is an error, since its
// templates would lose their spawns (the marks are source locations
// recorded while parsing, which a precompiled header skips), and all of its
// code would be serial if it was built without the plugin. And
// preprocessed input (.i, .ii) that included weft.h was preprocessed
// without the plugin's front end, which only runs when Clang parses.
//
//===----------------------------------------------------------------------===//

#include "frontend/SpawnMarks.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;

namespace weft {
namespace {

/// Whether \p Name is one of the keywords <cilk/cilk.h> or <weft/weft.h>
/// define.
bool isKeywordMacro(StringRef Name) {
  static constexpr llvm::StringLiteral Keywords[] = {
      "cilk_spawn",  "cilk_sync",  "cilk_for",  "cilk_scope",
      "_Cilk_spawn", "_Cilk_sync", "_Cilk_for", "_Cilk_scope",
      "weft_spawn",  "weft_sync",  "weft_for",  "weft_scope"};
  return llvm::is_contained(Keywords, Name);
}

/// Whether a macro whose body is \p Body marks parallelism: it uses
/// _Pragma (weft.h's definitions with __weft__) or expands to another
/// keyword macro, which is judged in turn.
bool expandsToMark(const MacroInfo &Body) {
  for (const Token &Tok : Body.tokens())
    if (const IdentifierInfo *II = Tok.getIdentifierInfo())
      if (II->getName() == "_Pragma" || isKeywordMacro(II->getName()))
        return true;
  return false;
}

class SerialKeywordWatch : public PPCallbacks {
public:
  SerialKeywordWatch(Preprocessor &PP, InputKind Input)
      : PP(PP), Input(Input) {}

  void MacroExpands(const Token &Name, const MacroDefinition &Definition,
                    SourceRange Range, const MacroArgs *) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    const MacroInfo *Body = Definition.getMacroInfo();
    if (!II || !Body || !isKeywordMacro(II->getName()) || expandsToMark(*Body))
      return;
    report(II->getName(), Name.getLocation(), *Body);
  }

  /// A precompiled header's code is not read again, so its keywords never
  /// expand here: when the main file starts, the keyword macros the header
  /// left behind say how it was built.
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile)
      return;
    if (Input == InputKind::Preprocessed)
      checkPreprocessedInclude(Loc);
    else
      checkPrecompiledHeader(Loc);
  }

private:
  /// -E runs no plugin action, so __weft__ is undefined there and weft.h
  /// gives its serial definitions: preprocessed input that included weft.h
  /// (-save-temps, or a cache that compiles preprocessed files) lost its
  /// spawns before the plugin saw it. Its line markers say so.
  void checkPreprocessedInclude(SourceLocation Loc) {
    const SourceManager &SM = PP.getSourceManager();
    PresumedLoc Where = SM.getPresumedLoc(Loc);
    if (ReportedPreprocessed || Where.isInvalid() ||
        !StringRef(Where.getFilename()).ends_with("weft/weft.h"))
      return;
    ReportedPreprocessed = true;
    DiagnosticsEngine &D = PP.getDiagnostics();
    D.Report(Loc, D.getCustomDiagID(
                      DiagnosticsEngine::Error,
                      "preprocessed input that includes <weft/weft.h>: "
                      "preprocessing (-E, -save-temps) does not run the Weft "
                      "plugin, so its spawns and cilk_for loops became serial "
                      "code; compile the source file itself"));
  }

  void checkPrecompiledHeader(SourceLocation Loc) {
    const SourceManager &SM = PP.getSourceManager();
    if (SM.getFileID(Loc) != SM.getMainFileID() || CheckedPrecompiled)
      return;
    CheckedPrecompiled = true;
    StringRef Header = PP.getPreprocessorOpts().ImplicitPCHInclude;
    if (!Header.empty() && definesKeywords())
      reportPrecompiled(Header);
  }

  /// Building a precompiled header that includes weft.h fails at once,
  /// rather than at its first use.
  void EndOfMainFile() override {
    if (Input == InputKind::PrecompiledHeaderBuild && definesKeywords())
      reportPrecompiled(PP.getSourceManager()
                            .getFileEntryRefForID(
                                PP.getSourceManager().getMainFileID())
                            ->getName());
  }

  bool definesKeywords() const {
    return PP.getMacroInfo(PP.getIdentifierInfo("weft_spawn")) != nullptr;
  }

  /// The marks of a header's templates are source locations recorded while
  /// it is parsed; a precompiled header is not parsed again, so the
  /// templates it holds would be instantiated without their spawns (and
  /// everything in it compiles as serial code if it was built without the
  /// plugin).
  void reportPrecompiled(StringRef Header) {
    DiagnosticsEngine &D = PP.getDiagnostics();
    D.Report(D.getCustomDiagID(
        DiagnosticsEngine::Error,
        "precompiled header '%0' includes <weft/weft.h> (or <cilk/cilk.h>), "
        "which Weft does not support: its spawns and cilk_for loops would "
        "compile as serial code; include the header instead of precompiling "
        "it"))
        << Header;
  }

  void report(StringRef Keyword, SourceLocation Use, const MacroInfo &Body) {
    const SourceManager &SM = PP.getSourceManager();
    DiagnosticsEngine &D = PP.getDiagnostics();
    SourceLocation Defined = Body.getDefinitionLoc();
    StringRef File = SM.getFilename(SM.getExpansionLoc(Defined));
    if (File.ends_with("weft/weft.h")) {
      D.Report(SM.getExpansionLoc(Use),
               D.getCustomDiagID(
                   DiagnosticsEngine::Error,
                   "'%0' would compile as serial code: <weft/weft.h> was "
                   "read while __weft__ was undefined (a -U__weft__, an "
                   "#undef, or a precompiled header built without the Weft "
                   "plugin)"))
          << Keyword;
    } else {
      D.Report(SM.getExpansionLoc(Use),
               D.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "'%0' is defined by the program as serial "
                                 "code, so nothing here runs in parallel; "
                                 "include <cilk/cilk.h> instead of defining "
                                 "it"))
          << Keyword;
    }
    D.Report(Defined, D.getCustomDiagID(DiagnosticsEngine::Note,
                                        "'%0' defined here"))
        << Keyword;
  }

  Preprocessor &PP;
  InputKind Input;
  bool CheckedPrecompiled = false;
  bool ReportedPreprocessed = false;
};

} // namespace

void watchSerialKeywords(Preprocessor &PP, InputKind Input) {
  PP.addPPCallbacks(std::make_unique<SerialKeywordWatch>(PP, Input));
}

} // namespace weft
