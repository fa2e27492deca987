//===- MainStack.cpp - Enter a program's main on the runtime's deep stack -===//
//
// A spawning function's frame takes several times a serial one's stack, so
// the runtime runs main on a stack sized for that (runtime/main_stack.h).
// This pass routes a program's main through it: it renames the program's
// main and defines a new one that hands the runtime an entry with main's
// full signature.
//
//   define i32 @main(i32 %argc, ptr %argv) { body }
//
// becomes
//
//   define i32 @__weft_main(i32 %argc, ptr %argv) noinline { body }
//   define internal i32 @__weft_main_entry(i32 %c, ptr %v, ptr %e) {
//     %r = call i32 @__weft_main(i32 %c, ptr %v)
//     ret i32 %r
//   }
//   define i32 @main(i32 %c, ptr %v, ptr %e) {
//     br (@__weft_run_main != null), label %deep, label %own
//   deep:  ret (call @__weft_run_main(ptr @__weft_main_entry, %c, %v, %e))
//   own:   ret (call @__weft_main_entry(%c, %v, %e))
//   }
//
// __weft_run_main is an extern_weak reference: a program that links the
// runtime gets it (it sits in the runtime's stack code, which every
// spawning program pulls in), and a program compiled with the plugin that
// links no runtime at all still links, and runs main on its own stack.
// The program's main keeps its debug information and is kept out of line,
// so debuggers and backtraces still show `main`.
//
// USAGE: opt -load-pass-plugin=libWeftPass.so -passes=weft-main-stack
//
//===----------------------------------------------------------------------===//

#include "lower/MainStack.h"
#include "shared/RuntimeABI.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace weft {
namespace {

/// main as C and C++ allow it on Linux: `int main(void)`,
/// `int main(int, char **)` or `int main(int, char **, char **)`.
bool hasStandardSignature(const Function &Main) {
  FunctionType *Signature = Main.getFunctionType();
  unsigned Params = Signature->getNumParams();
  if (Signature->isVarArg() || !Signature->getReturnType()->isIntegerTy(32) ||
      Params == 1 || Params > 3)
    return false;
  if (Params && !Signature->getParamType(0)->isIntegerTy(32))
    return false;
  for (unsigned I = 1; I < Params; ++I)
    if (!Signature->getParamType(I)->isPointerTy())
      return false;
  return true;
}

/// An empty function of main's full signature named \p Name, with the
/// program's main's function attributes (target features, frame pointers).
Function *createLike(Function &Main, FunctionType *Type,
                     GlobalValue::LinkageTypes Linkage, const Twine &Name) {
  Function *F = Function::Create(Type, Linkage, Name, Main.getParent());
  AttributeList Attrs = Main.getAttributes();
  F->setAttributes(AttributeList::get(Main.getContext(),
                                      AttributeList::FunctionIndex,
                                      AttrBuilder(Main.getContext(),
                                                  Attrs.getFnAttrs())));
  F->removeFnAttr(Attribute::NoRecurse);
  return F;
}

/// `__weft_main_entry(argc, argv, envp)`: calls the program's main with the
/// arguments it declares.
Function *createEntry(Function &UserMain, FunctionType *Type) {
  Function *Entry = createLike(UserMain, Type, GlobalValue::InternalLinkage,
                               "__weft_main_entry");
  IRBuilder<> B(BasicBlock::Create(Entry->getContext(), "", Entry));
  SmallVector<Value *, 3> Args;
  for (unsigned I = 0; I < UserMain.arg_size(); ++I)
    Args.push_back(Entry->getArg(I));
  B.CreateRet(B.CreateCall(&UserMain, Args));
  return Entry;
}

/// The new main: through the runtime when it is linked, else directly.
void defineMain(Function &Main, Function &Entry, FunctionCallee RunMain) {
  LLVMContext &Ctx = Main.getContext();
  auto *Start = BasicBlock::Create(Ctx, "", &Main);
  auto *Own = BasicBlock::Create(Ctx, "own", &Main);
  auto *Deep = BasicBlock::Create(Ctx, "deep", &Main);
  IRBuilder<> B(Start);
  B.CreateCondBr(B.CreateIsNotNull(RunMain.getCallee()), Deep, Own);
  SmallVector<Value *, 4> Args(llvm::make_pointer_range(Main.args()));
  B.SetInsertPoint(Own);
  B.CreateRet(B.CreateCall(&Entry, Args));
  B.SetInsertPoint(Deep);
  Args.insert(Args.begin(), &Entry);
  B.CreateRet(B.CreateCall(RunMain, Args));
}

} // namespace

PreservedAnalyses MainStackPass::run(Module &M, ModuleAnalysisManager &) {
  Function *UserMain = M.getFunction("main");
  if (!UserMain || UserMain->isDeclaration() ||
      !hasStandardSignature(*UserMain) ||
      M.getFunction(runtimeName(RuntimeFn::RunMain)) ||
      M.getFunction("__weft_main"))
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  auto *I32 = Type::getInt32Ty(Ctx);
  auto *MainType = FunctionType::get(I32, {I32, Ptr, Ptr}, false);

  UserMain->setName("__weft_main");
  Function *Entry = createEntry(*UserMain, MainType);
  Function *Main = createLike(*UserMain, MainType,
                              GlobalValue::ExternalLinkage, "main");
  // Out of line, main keeps its own frame and debug information.
  UserMain->addFnAttr(Attribute::NoInline);

  auto *RunMain = Function::Create(
      runtimeFunctionType(Ctx, RuntimeFn::RunMain),
      GlobalValue::ExternalWeakLinkage, runtimeName(RuntimeFn::RunMain), M);
  defineMain(*Main, *Entry, RunMain);
  return PreservedAnalyses::none();
}

} // namespace weft
