//===- WeftPlugin.cpp - The Clang plugin: front end and pass registration -===//
//
// USAGE: clang++ -fplugin=libWeftPlugin.so ... (or the weft-clang++ driver)
//
// One -fplugin flag does everything: the plugin defines __weft__ (so
// <weft/weft.h> and <cilk/cilk.h> turn their keywords into pragmas), records
// spawn and sync marks while Clang parses (MarkCapture.cpp), rewrites each
// function body before CodeGen sees it (SpawnRewriter.cpp), and adds the IR
// pass to the start of the optimisation pipeline (LowerSpawns.cpp) at every
// -O level.
//
//===----------------------------------------------------------------------===//

#include "LowerSpawns.h"
#include "SpawnRewriter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Passes/PassBuilder.h"

using namespace clang;

namespace weft {
namespace {

class WeftConsumer : public ASTConsumer {
public:
  void Initialize(ASTContext &Ctx) override {
    Rewriter = std::make_unique<SpawnRewriter>(Ctx);
  }

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      Rewriter->rewriteDecl(D);
    return true;
  }

  void HandleInlineFunctionDefinition(FunctionDecl *FD) override {
    Rewriter->rewriteDecl(FD);
  }

  void HandleTranslationUnit(ASTContext &) override {
    Rewriter->reportUnmatched();
  }

private:
  std::unique_ptr<SpawnRewriter> Rewriter;
};

class WeftAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    // The main file has not been entered yet, so predefines still apply.
    Preprocessor &PP = CI.getPreprocessor();
    PP.setPredefines(PP.getPredefines() + "#define __weft__ 1\n");
    CodeGenOptions &CodeGen = CI.getCodeGenOpts();
    CodeGen.PassBuilderCallbacks.push_back(
        [](llvm::PassBuilder &PB) { registerLowerSpawns(PB, true); });
    // Lifetime markers at every -O level. coro-split keeps an alloca out of
    // the shared frame only if they show it dead at every steal point; a
    // spawned statement's temporaries in a loop would otherwise share one
    // frame slot between the child reading it and the thief's next
    // iteration. Clang emits them at -O0 only for this option, which
    // does nothing else unless AddressSanitizer is on.
    CodeGen.SanitizeAddressUseAfterScope = true;
    return std::make_unique<WeftConsumer>();
  }

  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &) override {
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace
} // namespace weft

static FrontendPluginRegistry::Add<weft::WeftAction>
    WeftPlugin("weft", "Cilk-style spawn and sync for C and C++");
