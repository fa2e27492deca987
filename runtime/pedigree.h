//===- pedigree.h - Each strand's pedigree, and the DotMix table ----------===//
//
// A PedigreeFrame is one level of the pedigree tree: the running strand's
// rank at that level, and the node that ties the level to the one above.
// Every thread has a current frame, the running strand's:
//
// - A spawn makes a frame for the child, on the spawning function's own
//   stack (the lowering's alloca, plugin/lower/Pedigrees.cpp), whose node
//   records the parent's rank; the parent's rank then counts the spawn.
// - A function that is called, not spawned, shares its caller's frame, as
//   in OpenCilk and Cilk Plus: calls are invisible in a pedigree.
// - Only the strand that owns a frame changes its rank: the parent's
//   continuation, on whichever worker runs it. A child reads nothing of
//   its parent's but the node and the prefix, which never change once
//   made, so a thief advancing the parent's rank races with nobody.
// - Where a strand may start on another thread (a stolen continuation, the
//   code after a sync that had to wait, a landing pad), the lowering sets
//   the thread's current frame from the function's own pointer to it,
//   which the coroutine frame carries.
//
// DotMix (weft/pedigree.h) sums (t + 1) * m[level] over a pedigree's
// terms. The terms above a frame's level never change while it lives, so
// their sum, the frame's prefix, is computed once, when a strand of the
// frame first draws, and kept; a draw adds its own rank's term and mixes.
// A level's depth is found the same way. A spawn or a sync then costs a
// few stores and an increment: what the plugin inlines into every fast
// clone (runtime/fast_path.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_PEDIGREE_H
#define WEFT_RUNTIME_PEDIGREE_H

#include "weft/frame_abi.h"
#include "weft/pedigree.h"

#include <atomic>
#include <cstdint>

namespace weft {

struct PedigreeFrame {
  __cilkrts_pedigree node; // { rank at the level above, its node }: fixed
  std::uint64_t rank;      // the running strand's rank at this level
  // This level's index in the pedigree, and DotMix's sum over the terms
  // above it plus the offset, mod p: both unknown (prefix kUnknownPrefix)
  // until a strand of this level, or of one below, first draws. Written by
  // whichever strand needs them first, maybe two at once (a parent's
  // continuation and a child computing its own): the same values. The
  // prefix is stored last, with release, and read with acquire, so that
  // a known prefix comes with its depth.
  std::atomic<std::uint64_t> depth;
  std::atomic<std::uint64_t> prefix;
};

/// No residue mod p is this large.
inline constexpr std::uint64_t kUnknownPrefix = ~std::uint64_t(0);

static_assert(sizeof(PedigreeFrame) == WEFT_PEDIGREE_FRAME_SIZE);
static_assert(alignof(PedigreeFrame) <= WEFT_PEDIGREE_FRAME_ALIGN);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

namespace detail {
/// The running strand's frame, or null on a thread that never had one.
/// Read and written directly only by the inlined hooks (fast_path.cpp),
/// whose thread-local accesses the IR pass keeps apart across calls;
/// pedigree.cpp goes through accessors that are never inlined.
extern __thread PedigreeFrame *CurrentPedigree;
} // namespace detail

/// A spawn's bookkeeping: \p Child becomes the level below \p Parent.
inline void beginChildPedigree(PedigreeFrame *Parent, PedigreeFrame *Child) {
  Child->node.rank = Parent->rank;
  Child->node.parent = &Parent->node;
  Child->rank = 0;
  Child->prefix.store(kUnknownPrefix, std::memory_order_relaxed);
  ++Parent->rank;
}

/// Iteration \p Index of a loop: \p F, the frame of a chunk of its
/// iterations, becomes that iteration's.
inline void beginIterationPedigree(PedigreeFrame *F, std::uint64_t Index) {
  F->node.rank = Index;
  F->rank = 0;
  F->prefix.store(kUnknownPrefix, std::memory_order_relaxed);
}

/// Runs reducer callbacks under a pedigree of their own: a callback runs
/// when a steal or a sync calls for it, not at a point of the serial
/// order, so it must neither see nor advance the strands' ranks. Nothing
/// happens unless the thread has a pedigree.
class PedigreeCallbackScope {
public:
  PedigreeCallbackScope();
  ~PedigreeCallbackScope();
  PedigreeCallbackScope(const PedigreeCallbackScope &) = delete;
  PedigreeCallbackScope &operator=(const PedigreeCallbackScope &) = delete;

private:
  PedigreeFrame *Saved;
  PedigreeFrame Own;
};

} // namespace weft

#endif // WEFT_RUNTIME_PEDIGREE_H
