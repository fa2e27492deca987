//===- TwinFunctions.h - A function that does what its callee does --------===//
//
// Template instances often come in twins: parlaylib's parallel_for<L> (an
// rvalue lambda) does what parallel_for<L&> does, calling parallel_for<L&>
// where parallel_for<L&> calls itself. Such a function may become a call of
// its twin (as MergeFunctions makes a thunk), keeping its symbol, linkage
// and attributes, since the program may compare its address. The lowering
// forwards the twins it can already tell apart before any optimisation
// (lower/LowerSpawns.cpp), and weft-finish those that only become alike on
// the way (finish/MergeClones.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_SHARED_TWINFUNCTIONS_H
#define WEFT_PLUGIN_SHARED_TWINFUNCTIONS_H

namespace llvm {
class Function;
class Constant;
class GlobalNumberState;
} // namespace llvm

namespace weft {

/// Whether \p F does what \p Twin does: the same instructions, where
/// \p Twin's references to itself are \p F's references to \p Twin, with the
/// same personality wherever a landing pad is left; never when \p Twin is
/// weak (another object's definition of it may be the one that runs). With
/// \p NounwindInvokesAsCalls, an invoke of a function known not to unwind
/// counts as a call, and the landing pads only such invokes reached do not
/// count: Clang emits a call to a function it has already found nounwind,
/// and an invoke to one it has not emitted yet, so the first of two
/// instances differs from the second in just that.
bool isTwinOf(llvm::Function &F, llvm::Function &Twin,
              llvm::GlobalNumberState &Numbers, bool NounwindInvokesAsCalls);

/// Each function of \p Twins (pairs of a function and its twin, as
/// isTwinOf found them) becomes a tail call of its twin with its own
/// arguments, keeping its linkage, attributes (but "weft-spawning") and
/// metadata; a pair whose twin already forwards is skipped, so that no
/// forwarding closes a cycle. Returns how many forward.
unsigned
forwardToTwins(llvm::ArrayRef<std::pair<llvm::Function *, llvm::Function *>>
                   Twins);

/// The personality that \p F's landing pads answer to; null without any.
const llvm::Constant *personalityOf(const llvm::Function &F);

} // namespace weft

#endif // WEFT_PLUGIN_SHARED_TWINFUNCTIONS_H
