//===- WeftPlugin.cpp - The Clang plugin: front end and pass registration -===//
//
// USAGE: clang++ -fplugin=libWeftPlugin.so ... (or the weft-clang++ driver)
//
// One -fplugin flag does everything: the plugin defines __weft__ (so
// <weft/weft.h> and <cilk/cilk.h> turn their keywords into pragmas) and
// what OpenCilk's compiler predefines (__cilk and the _Cilk_ keywords,
// openCilkMacros() below), records
// spawn and sync marks while Clang parses (MarkCapture.cpp), rewrites each
// function body before CodeGen sees it (SpawnRewriter.cpp), and adds the IR
// pass to the start of the optimisation pipeline (LowerSpawns.cpp) at every
// -O level. While it compiles, the pass reports errors about a spawn at the
// spawn's source location through Clang's diagnostics (SourceErrors.h).
//
// Two plugin arguments, of which a compilation takes one at most:
// -fplugin-arg-weft-workspan (what `weft-clang++ --weft-workspan` passes)
// builds for the work/span analysis: the pass reports every spawning
// function's structure to the runtime's analysis (WorkSpan.h), and
// __weft_workspan__ and __cilkscale__ are defined, so that
// <cilk/cilkscale.h> declares the real API (docs/workspan.md).
// -fplugin-arg-weft-race (`weft-clang++ --weft-race`, which adds
// -fsanitize=thread -fno-sanitize-link-runtime) builds for the
// determinacy-race detector: the pass reports the same structure under the
// race names, and __weft_race__ and OpenCilk's __cilksan__ are defined
// (docs/race.md). Either may come with -fplugin-arg-weft-pedigrees
// (weft-clang's -fopencilk-enable-pedigrees or --weft-pedigrees): every
// spawning function keeps its strands' pedigrees (Pedigrees.h), and
// __weft_pedigrees__ and OpenCilk's __cilk_pedigrees__ are defined
// (docs/pedigrees.md). -fplugin-arg-weft-cilkscale-benchmark (weft-clang's
// -fcilktool=cilkscale-benchmark) builds the normal program and defines
// __weft_cilkscale_benchmark__ and __cilkscale__, for which
// <cilk/cilkscale.h> reads wall-clock time (docs/workspan.md).
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"
#include "shared/SourceErrors.h"
#include "frontend/Diagnostics.h"
#include "frontend/KnownAllocators.h"
#include "frontend/SpawnMarks.h"
#include "frontend/SpawnRewriter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/Passes/PassBuilder.h"

using namespace clang;

namespace weft {
namespace {

/// Reports \p Msg at the raw location \p Raw if it is one of this
/// compilation's source locations.
bool reportAtSource(DiagnosticsEngine &Diags, unsigned Raw, StringRef Msg) {
  if (!Diags.hasSourceManager())
    return false;
  const SourceManager &SM = Diags.getSourceManager();
  SourceLocation Loc = SourceLocation::getFromRawEncoding(Raw);
  if (Loc.isInvalid() ||
      !(SM.isLocalSourceLocation(Loc) || SM.isLoadedSourceLocation(Loc)))
    return false;
  reportError(Diags, Loc, Msg);
  return true;
}

/// \p Predefines with \p Macros among Clang's own macros, before the
/// command line's section: the -D and -U options still override them, and
/// the files of -include and -imacros, which Clang reads at the end of the
/// predefines, see them as the main file does. Appended at the end instead,
/// __weft__ would come after a forced include, whose keywords would compile
/// as serial code.
std::string withBuiltinMacros(const std::string &Predefines,
                              const std::string &Macros) {
  std::size_t CommandLine = Predefines.find("# 1 \"<command line>\" 1\n");
  if (CommandLine == std::string::npos)
    return Macros + Predefines;
  return Predefines.substr(0, CommandLine) + Macros +
         Predefines.substr(CommandLine);
}

/// What OpenCilk's compiler predefines under -fopencilk, which Weft always
/// is: __cilk, and the keywords _Cilk_spawn, _Cilk_sync, _Cilk_for,
/// _Cilk_scope and _Hyperobject(identity, reduce), here as macros for the
/// pragmas and the type attribute that <weft/weft.h> and <cilk/cilk.h>
/// spell them with, so that a file that includes neither uses them.
/// __cilksan__, OpenCilk's mark of a race-detector build, comes with the
/// race mode (below). In C++ the reducer's callbacks are converted to their
/// types, which also resolves a template-id such as zero<long>; in C the
/// plugin checks them (ReducerTypes.cpp).
std::string openCilkMacros(bool CPlusPlus) {
  std::string Callback =
      CPlusPlus ? "static_cast<void (*)(void *)>(identity), "
                  "static_cast<void (*)(void *, void *)>(reduce)"
                : "identity, reduce";
  return "#define __cilk 200\n"
         "#define _Cilk_spawn _Pragma(\"weft spawn\")\n"
         "#define _Cilk_sync _Pragma(\"weft sync\")\n"
         "#define _Cilk_for _Pragma(\"weft for\") for\n"
         "#define _Cilk_scope _Pragma(\"weft scope\")\n"
         "#define _Hyperobject(identity, reduce) "
         "[[clang::annotate_type(\"weft_reducer\", " +
         Callback + ")]]\n";
}

InputKind inputKind(const FrontendOptions &Frontend) {
  if (Frontend.ProgramAction == frontend::GeneratePCH)
    return InputKind::PrecompiledHeaderBuild;
  if (!Frontend.Inputs.empty() && Frontend.Inputs[0].getKind().isPreprocessed())
    return InputKind::Preprocessed;
  return InputKind::Source;
}

class WeftConsumer : public SemaConsumer {
public:
  /// The pass runs from CodeGen's consumer, after this one's callbacks and
  /// before the consumers are destroyed, so the hook lives as long as this
  /// consumer; each compilation that adds the pass creates one.
  WeftConsumer(CompilerInstance &CI, DiagnosticsEngine &Diags, Analysis Mode)
      : CI(CI), Mode(Mode) {
    sourceErrorHook() = [&Diags](unsigned Raw, StringRef Msg) {
      return reportAtSource(Diags, Raw, Msg);
    };
  }
  ~WeftConsumer() override {
    sourceErrorHook() = nullptr;
    parsingSema() = nullptr;
  }

  void Initialize(ASTContext &Ctx) override {
    Rewriter = std::make_unique<SpawnRewriter>(Ctx);
    if (S)
      Rewriter->setSema(*S);
    // A function the front end makes goes to every consumer, CodeGen's
    // included, as a top-level declaration (this one has walked it).
    Rewriter->EmitDecl = [this](Decl *D) {
      if (CI.hasASTConsumer())
        CI.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(D));
    };
  }

  /// Parallel loops are rebuilt with Sema (ParallelForRewriter.cpp), and
  /// `#pragma cilk grainsize` asks it where the parser is.
  void InitializeSema(Sema &Actions) override {
    S = &Actions;
    parsingSema() = &Actions;
    if (Rewriter)
      Rewriter->setSema(Actions);
  }

  void ForgetSema() override {
    S = nullptr;
    parsingSema() = nullptr;
  }

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG) {
      Rewriter->rewriteDecl(D);
      markAllocators(D);
    }
    return true;
  }

  void HandleInlineFunctionDefinition(FunctionDecl *FD) override {
    Rewriter->rewriteDecl(FD);
    markAllocators(FD);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Rewriter->finishReducerMembers(Ctx.getTranslationUnitDecl());
    Rewriter->checkRemainingReducerUses(Ctx.getTranslationUnitDecl());
    Rewriter->reportUnmatched();
  }

private:
  /// In race mode, the known library allocators' entry points are marked
  /// for the IR's model of them (KnownAllocators.cpp), before CodeGen,
  /// which runs after this consumer, emits them.
  void markAllocators(Decl *D) {
    if (Mode == Analysis::Race)
      markKnownAllocators(D, D->getASTContext());
  }

  CompilerInstance &CI;
  Analysis Mode;
  std::unique_ptr<SpawnRewriter> Rewriter;
  Sema *S = nullptr;
};

class WeftAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    // The main file has not been entered yet, so predefines still apply.
    Preprocessor &PP = CI.getPreprocessor();
    std::string Macros = "#define __weft__ 1\n" +
                         openCilkMacros(CI.getLangOpts().CPlusPlus);
    if (Mode == Analysis::WorkSpan)
      Macros += "#define __weft_workspan__ 1\n#define __cilkscale__ 1\n";
    if (Mode == Analysis::Race)
      Macros += "#define __weft_race__ 1\n#define __cilksan__ 1\n";
    if (Pedigrees)
      Macros += "#define __weft_pedigrees__ 1\n#define __cilk_pedigrees__ 1\n";
    if (CilkscaleBenchmark)
      Macros += "#define __weft_cilkscale_benchmark__ 1\n"
                "#define __cilkscale__ 1\n";
    PP.setPredefines(withBuiltinMacros(PP.getPredefines(), Macros));
    watchSerialKeywords(PP, inputKind(CI.getFrontendOpts()));
    watchTokens(PP);
    CodeGenOptions &CodeGen = CI.getCodeGenOpts();
    CodeGen.PassBuilderCallbacks.push_back(
        [Mode = Mode, Pedigrees = Pedigrees](llvm::PassBuilder &PB) {
          registerPasses(PB, true, Mode, Pedigrees);
        });
    // Lifetime markers at every -O level. coro-split keeps an alloca out of
    // the shared frame only if they show it dead at every steal point; a
    // spawned statement's temporaries in a loop would otherwise share one
    // frame slot between the child reading it and the thief's next
    // iteration. Clang emits them at -O0 only for this option, which
    // does nothing else unless AddressSanitizer is on.
    CodeGen.SanitizeAddressUseAfterScope = true;
    return std::make_unique<WeftConsumer>(CI, CI.getDiagnostics(), Mode);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    for (const std::string &Arg : Args) {
      if (Arg == "pedigrees") {
        Pedigrees = true;
        continue;
      }
      // The normal build, whose <cilk/cilkscale.h> reads wall-clock time.
      if (Arg == "cilkscale-benchmark") {
        CilkscaleBenchmark = true;
        continue;
      }
      Analysis Asked = Arg == "workspan" ? Analysis::WorkSpan
                       : Arg == "race"   ? Analysis::Race
                                         : Analysis::None;
      if (Asked == Analysis::None) {
        Diags.Report(Diags.getCustomDiagID(
            DiagnosticsEngine::Error, "unknown argument '%0' for the weft "
                                      "plugin (expected 'workspan', 'race', "
                                      "'pedigrees' or 'cilkscale-benchmark')"))
            << Arg;
        return false;
      }
      // The race detector runs the program on one worker and ignores time;
      // the analysis measures the normal build's code, which ThreadSanitizer's
      // instrumentation would inflate. Neither can read the other's calls.
      if (Mode != Analysis::None && Mode != Asked) {
        Diags.Report(Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "the weft plugin's 'workspan' and 'race' arguments cannot be "
            "combined (--weft-workspan and --weft-race build for different "
            "runtimes)"));
        return false;
      }
      Mode = Asked;
    }
    if (CilkscaleBenchmark && Mode != Analysis::None) {
      Diags.Report(Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "the weft plugin's 'cilkscale-benchmark' argument builds the normal "
          "program, timed; it cannot be combined with 'workspan' or 'race'"));
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  // Normal, or built for the work/span analysis or the race detector.
  Analysis Mode = Analysis::None;
  // Keeping the strands' pedigrees (any of the three).
  bool Pedigrees = false;
  // Cilkscale's benchmark mode: normal code, <cilk/cilkscale.h> timing it.
  bool CilkscaleBenchmark = false;
};

} // namespace
} // namespace weft

static FrontendPluginRegistry::Add<weft::WeftAction>
    WeftPlugin("weft", "Cilk-style spawn and sync for C and C++");
