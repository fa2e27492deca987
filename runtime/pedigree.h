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
//   its parent's but the node, which never changes once made, so a thief
//   advancing the parent's rank races with nobody.
// - Where a strand may start on another thread (a stolen continuation, the
//   code after a sync that had to wait, a landing pad), the lowering sets
//   the thread's current frame from the function's own pointer to it,
//   which the coroutine frame carries.
//
// Each frame also keeps DotMix's sum for its strand (weft/pedigree.h), so
// a random number costs a mix.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_PEDIGREE_H
#define WEFT_RUNTIME_PEDIGREE_H

#include "weft/frame_abi.h"
#include "weft/pedigree.h"

#include <cstdint>

namespace weft {

struct PedigreeFrame {
  __cilkrts_pedigree node; // { rank at the level above, its node }: fixed
  std::uint64_t rank;      // the running strand's rank at this level
  std::uint64_t dot;       // DotMix's sum for the running strand, mod p
  std::uint64_t depth;     // this level's index in the pedigree
};

static_assert(sizeof(PedigreeFrame) == WEFT_PEDIGREE_FRAME_SIZE);
static_assert(alignof(PedigreeFrame) <= WEFT_PEDIGREE_FRAME_ALIGN);

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
