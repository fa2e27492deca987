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
  // Expected: the compiler barrier is the fall-through path of every pop.
  return __builtin_expect(detail::AsymmetricFences, true);
#endif
}

/// The owner's side of a Dekker pair: a compiler barrier when thieves use
/// membarrier, a full fence otherwise.
inline void light_fence() {
  if (fences_asymmetric())
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

/// The rare side of a Dekker pair (a thief, a worker going to sleep):
/// orders it against every light_fence() in the process.
void heavy_fence();

} // namespace weft

#endif // WEFT_RUNTIME_FENCE_H
