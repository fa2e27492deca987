//===- FastPath.cpp - Inline the runtime's push and pop into fast clones --===//
//
// The lowering emits the spawn path as calls, because coro-split must see
// each spawned call as one call right after the push (LowerSpawns.cpp):
//
//   %mark = call i64 @__weft_push(ptr %frame)
//   %r = call i64 @fib(i64 %n1)
//   %ok = call i1 @__weft_pop(i64 %mark)
//
// Out of line, those two calls (each finding the thread's worker through
// another call) are most of what a spawn costs. At the end of the pipeline,
// when the clones are split and no coroutine rewriting is left to care
// where blocks begin, this pass links in the runtime's own fast path
// (runtime/fast_path.cpp, compiled to bitcode by the build for each
// architecture the plugin serves, x86-64 and AArch64, and embedded in the
// plugin) and inlines it at each of those calls:
//
//   %w = load ptr, ptr @llvm.threadlocal.address(@weft::detail::ThreadWorker)
//   ... Deque::try_push: loads of bottom, top and ring, a store of the
//   ... frame into its slot, a release store of bottom+1 (the mark); a
//   ... counter; one flag test; calls to @__weft_push etc. only when uncommon
//   %r = call i64 @fib(i64 %n1)
//   %w2 = load ptr, ptr @llvm.threadlocal.address(...)   ; in a new block
//   ... Deque::pop_owned(mark): store of mark-1 (bottom loaded only to
//   ... confirm it), compiler barrier, load of top
//
// The thread-local reads are made opaque while inlining and put back by
// restoreThreadLocalAddresses() afterwards, which starts a new block before
// any read that follows a call, so that instruction selection cannot reuse
// the push's read in the pop after a child that moved to another thread.
//
// A pop in a landing pad (a spawned call that threw) stays a call: it runs
// once per exception. The out-of-line calls also stay when the module
// targets a platform the plugin has no bitcode for; at -O0 (optnone functions),
// where the register allocator would give each inlined value its own stack
// slot and deep recursion would need far more stack per level; and in
// functions built for ThreadSanitizer or MemorySanitizer (libweft is not
// instrumented; half-instrumented deque operations would only confuse them).
//
//===----------------------------------------------------------------------===//

#include "lower/ThreadLocals.h"
#include "finish/PostSplit.h"
#include "shared/RuntimeABI.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "weft-fast-path"

using namespace llvm;

STATISTIC(NumInlined, "Pushes and pops inlined from the runtime's fast path");

namespace weft {
namespace {

struct FastPathPair {
  const char *OutOfLine;
  const char *Inline;
};
constexpr FastPathPair FastPaths[] = {
    {runtimeName(RuntimeFn::Push), runtimeName(RuntimeFn::PushInline)},
    {runtimeName(RuntimeFn::Pop), runtimeName(RuntimeFn::PopInline)},
    {runtimeName(RuntimeFn::PedigreeEnter),
     runtimeName(RuntimeFn::PedigreeEnterInline)},
    {runtimeName(RuntimeFn::PedigreeSpawn),
     runtimeName(RuntimeFn::PedigreeSpawnInline)},
    {runtimeName(RuntimeFn::PedigreeResume),
     runtimeName(RuntimeFn::PedigreeResumeInline)},
    {runtimeName(RuntimeFn::PedigreeSync),
     runtimeName(RuntimeFn::PedigreeSyncInline)},
    {runtimeName(RuntimeFn::PedigreeSyncs),
     runtimeName(RuntimeFn::PedigreeSyncsInline)},
    {runtimeName(RuntimeFn::PedigreeIteration),
     runtimeName(RuntimeFn::PedigreeIterationInline)}};

/// The calls of \p Name in functions where the fast path may be inlined.
SmallVector<CallInst *, 16> inlinableCalls(Module &M, StringRef Name) {
  SmallVector<CallInst *, 16> Calls;
  Function *Callee = M.getFunction(Name);
  if (!Callee)
    return Calls;
  for (User *U : Callee->users()) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || CI->getCalledFunction() != Callee)
      continue;
    const Function *Caller = CI->getFunction();
    if (Caller->hasOptNone() ||
        Caller->hasFnAttribute(Attribute::SanitizeThread) ||
        Caller->hasFnAttribute(Attribute::SanitizeMemory))
      continue;
    // The pop in the landing pad of a spawned call that threw runs once
    // per exception, not per spawn: out of line it is one call where the
    // inlined pop would be some forty bytes in every fast clone.
    if (CI->getParent()->isLandingPad())
      continue;
    Calls.push_back(CI);
  }
  return Calls;
}

/// The embedded fast path of \p M's architecture, if the plugin has one.
std::optional<MemoryBufferRef> fastPathFor(const Module &M) {
  Triple Ours(M.getTargetTriple());
  for (StringRef Bytes : embeddedFastPaths()) {
    MemoryBufferRef Buffer(Bytes, "weft-fast-path.bc");
    Expected<std::string> Theirs = getBitcodeTargetTriple(Buffer);
    if (!Theirs) {
      consumeError(Theirs.takeError());
      continue;
    }
    if (Triple(*Theirs).getArch() == Ours.getArch())
      return Buffer;
  }
  return std::nullopt;
}

/// The embedded fast path, ready to link into \p M; null if it was built
/// for another platform than \p M's.
std::unique_ptr<Module> loadFastPath(Module &M) {
  std::optional<MemoryBufferRef> Buffer = fastPathFor(M);
  if (!Buffer)
    return nullptr;
  Expected<std::unique_ptr<Module>> Parsed =
      parseBitcodeFile(*Buffer, M.getContext());
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return nullptr;
  }
  std::unique_ptr<Module> FP = std::move(*Parsed);
  Triple Ours(M.getTargetTriple()), Theirs(FP->getTargetTriple());
  if (Ours.getArch() != Theirs.getArch() || Ours.getOS() != Theirs.getOS() ||
      Ours.getEnvironment() != Theirs.getEnvironment() ||
      M.getDataLayoutStr() != FP->getDataLayoutStr())
    return nullptr;
  // Only code comes in: the module's own flags (PIC level, frame pointers)
  // and identity stay as the user's compile set them.
  for (StringRef Named : {"llvm.module.flags", "llvm.ident"})
    if (NamedMDNode *Node = FP->getNamedMetadata(Named))
      FP->eraseNamedMetadata(Node);
  FP->setTargetTriple(M.getTargetTriple());
  return FP;
}

/// Whether \p M is built for an executable: position-dependent or PIE
/// code, which the linker never puts in a shared object.
bool buildsExecutable(const Module &M) {
  return M.getPICLevel() == PICLevel::NotPIC ||
         M.getPIELevel() != PIELevel::Default;
}

/// In an executable, the runtime's variables that the fast path reads
/// (the thread's worker, the push-hook word, the fence mode) are defined in
/// the same link, since libweft is a static library. Saying so lets the
/// backend address them directly instead of through the GOT, and read the
/// thread's worker with one %fs-relative load (local-exec) instead of a GOT
/// load and then that load: two loads fewer on each of push and pop.
void bindRuntimeVariablesLocally(Module &M, ArrayRef<std::string> Names) {
  if (!buildsExecutable(M))
    return;
  for (const std::string &Name : Names) {
    GlobalVariable *GV = M.getNamedGlobal(Name);
    if (!GV || !GV->isDeclaration())
      continue;
    GV->setDSOLocal(true);
    if (GV->isThreadLocal())
      GV->setThreadLocalMode(GlobalValue::LocalExecTLSModel);
  }
}

/// Links the fast path into \p M; its definitions become private to \p M.
bool linkFastPath(Module &M) {
  std::unique_ptr<Module> FP = loadFastPath(M);
  if (!FP)
    return false;
  SmallVector<std::string, 4> Defined, RuntimeVariables;
  for (Function &Fn : *FP)
    if (!Fn.isDeclaration())
      Defined.push_back(Fn.getName().str());
  for (GlobalVariable &GV : FP->globals())
    if (GV.isDeclaration())
      RuntimeVariables.push_back(GV.getName().str());
  if (Linker::linkModules(M, std::move(FP)))
    return false;
  bindRuntimeVariablesLocally(M, RuntimeVariables);
  for (const std::string &Name : Defined)
    if (Function *Fn = M.getFunction(Name)) {
      Fn->setLinkage(GlobalValue::InternalLinkage);
      Fn->setComdat(nullptr);
    }
  return true;
}

} // namespace

bool inlineFastPath(Module &M, SmallPtrSetImpl<Function *> &Touched,
                    std::optional<RuntimeFn> Only) {
  SmallVector<CallInst *, 16> Calls[std::size(FastPaths)];
  bool Any = false;
  for (size_t I = 0; I < std::size(FastPaths); ++I) {
    if (Only && StringRef(FastPaths[I].OutOfLine) != runtimeName(*Only))
      continue;
    Calls[I] = inlinableCalls(M, FastPaths[I].OutOfLine);
    Any |= !Calls[I].empty();
  }
  if (!Any || !linkFastPath(M))
    return false;
  hideThreadLocalAddresses(M); // the fast path's own reads
  for (size_t I = 0; I < std::size(FastPaths); ++I) {
    Function *Body = M.getFunction(FastPaths[I].Inline);
    if (!Body || Calls[I].empty()) {
      if (Body && Body->use_empty())
        Body->eraseFromParent();
      continue;
    }
    for (CallInst *CI : Calls[I]) {
      Touched.insert(CI->getFunction());
      CI->setCalledFunction(Body);
      InlineFunctionInfo IFI;
      if (!InlineFunction(*CI, IFI).isSuccess())
        continue;
      ++NumInlined;
      // The frame passed on to the runtime's slow path may be an alloca
      // of the caller (FrameToStack.cpp): no inlined call may stay `tail`.
      for (CallBase *Inlined : IFI.InlinedCallSites)
        if (auto *Call = dyn_cast<CallInst>(Inlined))
          Call->setTailCallKind(CallInst::TCK_None);
    }
    if (Body->use_empty())
      Body->eraseFromParent();
  }
  return true;
}

} // namespace weft
