//===- fence.h - Asymmetric fences: free for the owner, paid by thieves ---===//
//
// Chase-Lev's pop and steal are a Dekker pair: the owner stores `bottom` and
// then loads `top`; a thief loads `top` and then `bottom`. Each side needs a
// store-load (or load-load) fence between its two accesses, and on x86 a
// seq_cst fence in every pop costs more than the rest of a spawn together.
//
// Pop runs T1 times, steal O(P*T_inf) times, so the cost moves to the thief:
//
//   owner (light_fence)                 thief (heavy_fence)
//   bottom.store(b)                     t = top.load()
//   compiler barrier                    membarrier(PRIVATE_EXPEDITED)
//   t = top.load()                      b = bottom.load()
//
// membarrier() makes every other running thread of the process execute a
// full barrier (by IPI) before it returns; a thread that is not running
// passed through one when it was switched out. So the owner's two accesses,
// kept in program order by the compiler barrier, are either both before its
// induced barrier, in which case the thief's later load of `bottom` sees the
// store, or both after it, in which case the owner's load of `top` sees at
// least what the thief saw; or the barrier falls between them, which is a
// real fence there. That is exactly what two seq_cst fences would give
// (Le, Pop, Cohen, Zappa Nardelli, PPoPP 2013, the fence pair in
// pop/steal). The same pairing serves the sleep protocol (worker.cpp).
//
// Where membarrier is unavailable, or WEFT_FENCES=symmetric, both sides use
// seq_cst fences. ThreadSanitizer models neither membarrier nor standalone
// fences; its build defines WEFT_SYMMETRIC_FENCES.
//
// The owner's pop does not test the mode on its common path (that test was
// a load and a branch per spawn). It always issues the compiler barrier,
// loads `top`, and decides "more than one element, done" from a comparison
// that fails in symmetric mode whatever the load returned, because the
// deque then stores `top` biased by 2^62 (deque.h, Fence modes). The pop
// then goes out of line (pop_fenced()), issues the seq_cst fence and loads
// `top` again, and decides only from that load: so in symmetric mode every
// decision rests on a fenced load, and the unfenced load is never used. A
// membarrier-less kernel pays a call per pop on top of the fence it
// already paid.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_FENCE_H
#define WEFT_RUNTIME_FENCE_H

#include <atomic>

namespace weft {

namespace detail {
/// Set once by fences_init(), before any other worker thread exists, and
/// read-only afterwards (threads started later see it through the thread
/// creation's happens-before).
extern bool AsymmetricFences;
} // namespace detail

/// Chooses the fence mode (WEFT_FENCES, membarrier support) and registers
/// the process for expedited membarriers. Called once, at pool start.
void fences_init();

/// True when thieves pay with membarrier and owners use compiler barriers.
inline bool fences_asymmetric() {
#ifdef WEFT_SYMMETRIC_FENCES
  return false;
#else
  return detail::AsymmetricFences;
#endif
}

/// The owner's side of a Dekker pair, always issued: a compiler barrier,
/// which is all of it when thieves use membarrier.
inline void light_fence() { std::atomic_signal_fence(std::memory_order_seq_cst); }

/// The rest of the owner's side when the fences are symmetric: a full
/// fence, after light_fence() and before the load whose value the owner
/// acts on (the deque's pop decides only from a load made after it).
inline void symmetric_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

/// The rare side of a Dekker pair (a thief, a worker going to sleep):
/// orders it against every light_fence() in the process.
void heavy_fence();

} // namespace weft

#endif // WEFT_RUNTIME_FENCE_H
