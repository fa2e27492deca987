//===- fast_path.cpp - The spawn path, inlined into every fast clone ------===//
//
// A push and a pop run once per spawn, T1 times; as out-of-line calls, each
// with its own call to find the thread's worker, they cost several times a
// plain function call. So this file is not part of libweft: the build
// compiles it to LLVM bitcode, the plugin embeds the bitcode, and after
// coro-split the IR pass inlines these two bodies at every push and pop it
// emitted (plugin/finish/FastPath.cpp), as OpenCilk inlines its ABI bitcode;
// in a pedigree build, the pedigree hooks' bodies too. What
// is left per spawn is one thread-local read, the deque's owner-side loads
// and stores and one flag test in the push; one thread-local read, a load
// to confirm the mark, a store, a compiler barrier and a load of top in the
// pop, which takes the push's mark (bottom after the push) rather than
// waiting for bottom to be loaded back (Deque::pop_owned). Each test that
// used to be here is folded into one that stays: a thread not yet
// registered meets a deque that refuses its push (detail::NoWorker), so
// there is no null test; while the deque's pops must be fenced its top
// carries a tag, so that the pop's comparison fails over to the fenced pop
// (deque.h, Fence policies), so there is no fence-mode test; and the spawn
// counter runs only under the flag test, while someone can read it
// (stats_api.cpp).
//
// The bodies are Deque's own owner operations (deque.h), so the runtime and
// the inlined code cannot drift apart. Anything uncommon (a thread's first
// spawn, a full ring, sleeping workers, stress mode, the last element of a
// deque, every pop while thieves come often) calls back into libweft
// (abi.cpp, Deque::pop_fenced): the pop inlines only
// Deque::pop_owned_inline, and its rare endings are calls, so that no object
// carries a copy of the fenced pop.
//
// Each thread-local read is done where it stands, never reused across the
// spawned call: a stolen parent's child may return on another thread (the
// IR pass keeps the reads apart, ThreadLocals.cpp). Between a push and the
// pop that takes the same frame back, the thread cannot change: a frame
// above ours in the deque can only be stolen after ours was.
//
//===----------------------------------------------------------------------===//

#include "pedigree.h"
#include "worker.h"

#include "weft/frame_abi.h"

using namespace weft;

extern "C" {

// The rare calls, on x86-64 through thunks that keep every register but
// r11 (abi.cpp; declared preserve_most by weft/frame_abi.h): values the
// fast clone holds across them stay where they are instead of taking
// callee-saved registers.
#if defined(__x86_64__)
#define WEFT_RARE_PUSH __weft_push_preserving
#define WEFT_RARE_AFTER_PUSH __weft_after_push_preserving
#define WEFT_RARE_PEDIGREE_ENTER __weft_pedigree_enter_preserving
#else
#define WEFT_RARE_PUSH __weft_push
#define WEFT_RARE_AFTER_PUSH __weft_after_push
#define WEFT_RARE_PEDIGREE_ENTER __weft_pedigree_enter
#endif

std::int64_t __weft_push_inline(void *FramePtr) {
  // A thread's first push finds detail::NoWorker, whose deque refuses it.
  Worker *W = detail::ThreadWorker;
  std::int64_t Mark;
  if (__builtin_expect(!W->deque.try_push(static_cast<Frame *>(FramePtr), Mark), 0))
    return WEFT_RARE_PUSH(FramePtr); // registers the thread, or grows the ring
  if (unsigned Hooks = push_hooks(); __builtin_expect(Hooks != 0, 0)) {
    if (Hooks != detail::CountBit)
      return WEFT_RARE_AFTER_PUSH(W); // the mark again: not kept across the call
    W->stats.spawns.add(); // all there is to do while statistics are on
  }
  return Mark;
}

bool __weft_pop_inline(std::int64_t Mark) {
  // Never null here: the push that this pop undoes registered the thread,
  // and a stack that moved did so to a worker.
  std::int64_t B;
  switch (detail::ThreadWorker->deque.pop_owned_inline(Mark, B)) {
  case Deque<Frame *>::OwnedPop::Taken:
    return true;
  case Deque<Frame *>::OwnedPop::Unmarked:
    return __weft_pop_unmarked();
  case Deque<Frame *>::OwnedPop::Fenced:
    break;
  }
  return __weft_pop_fenced(B);
}

// A pedigree build's hooks (runtime/pedigree.cpp has the rules): a
// thread-local read at a spawning function's entry, a few stores and an
// increment at a spawn, an increment at a sync, a thread-local store where
// a strand starts. Drawing numbers, and a thread's first frame, stay in
// libweft.

void *__weft_pedigree_enter_inline(void) {
  PedigreeFrame *F = detail::CurrentPedigree;
  if (__builtin_expect(F == nullptr, 0))
    return WEFT_RARE_PEDIGREE_ENTER(); // makes the thread's root
  return F;
}

void __weft_pedigree_spawn_inline(void *Parent, void *Child) {
  beginChildPedigree(static_cast<PedigreeFrame *>(Parent),
                     static_cast<PedigreeFrame *>(Child));
  detail::CurrentPedigree = static_cast<PedigreeFrame *>(Child);
}

void __weft_pedigree_resume_inline(void *Frame) {
  detail::CurrentPedigree = static_cast<PedigreeFrame *>(Frame);
}

void __weft_pedigree_sync_inline(void *Frame) {
  ++static_cast<PedigreeFrame *>(Frame)->rank;
}

void __weft_pedigree_syncs_inline(uint64_t Count) {
  // Zero on the paths that never went round the loop: nothing to read.
  if (Count != 0)
    detail::CurrentPedigree->rank += Count;
}

void __weft_pedigree_iteration_inline(uint64_t Index) {
  beginIterationPedigree(detail::CurrentPedigree, Index);
}

} // extern "C"
