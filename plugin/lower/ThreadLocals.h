//===- ThreadLocals.h - thread_local addresses across steal points --------===//
#ifndef WEFT_PLUGIN_LOWER_THREADLOCALS_H
#define WEFT_PLUGIN_LOWER_THREADLOCALS_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace weft {

/// From the start of the pipeline to its end, thread_local addresses are
/// computed by an opaque call that no call lets LLVM reuse across, since
/// any call may return on another thread (ThreadLocals.cpp). The lowering
/// hides them; the last post-split step restores them. Each returns true
/// if it changed anything.
bool hideThreadLocalAddresses(llvm::Module &M);
bool restoreThreadLocalAddresses(llvm::Module &M);
/// Whether \p F is the opaque stand-in for llvm.threadlocal.address that
/// hideThreadLocalAddresses put in.
bool isHiddenThreadLocalAddress(const llvm::Function &F);

} // namespace weft

#endif // WEFT_PLUGIN_LOWER_THREADLOCALS_H
