//===- fence.h - Who pays for the fence pair of pop and steal -------------===//
//
// Chase-Lev's pop and steal are a Dekker pair: the owner stores `bottom` and
// then loads `top`; a thief loads `top` and then `bottom`. Each side needs a
// store-load (or load-load) fence between its two accesses. A pop runs T1
// times, a steal O(P*T_inf) times, so a pop should not pay a full fence: on
// x86 one costs more than the rest of a spawn together.
//
// Two ways to pay for it, and the deque picks between them per deque, at
// run time (deque.h, Fence policies):
//
//   unfenced owner (light_fence)         thief (heavy_fence)
//   bottom.store(b)                      t = top.load()
//   compiler barrier                     membarrier(PRIVATE_EXPEDITED)
//   t = top.load()                       b = bottom.load()
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
// pop/steal).
//
//   fenced owner (full_fence)            thief (full_fence)
//   bottom.store(b)                      t = top.load()
//   full fence                           full fence
//   t = top.load()                       b = bottom.load()
//
// the textbook pair, which costs every pop a fence and a steal nothing more.
//
// The membarrier is cheap on an idle machine and dear on a busy one: it
// interrupts all P-1 running workers, and in a virtual machine each of
// those interrupts is a VM exit (docs/architecture.md, section 2 has the
// model and the figures). So a deque starts unfenced and switches to fenced
// pops while thieves come often; a thief asks for the switch instead of
// paying a membarrier, and pays one only if the owner does not answer in
// time. The sleep protocol (worker.cpp) keeps the membarrier: it pairs with
// the push, which has no fence in either mode.
//
// Where membarrier is unavailable, or WEFT_FENCES=symmetric, every deque is
// fenced for good; WEFT_FENCES=asymmetric keeps every deque unfenced, with a
// membarrier per steal. ThreadSanitizer models neither membarrier nor
// standalone fences; the runtime's TSan build defines WEFT_SYMMETRIC_FENCES
// (the deque's own tests still run every policy under it, since the deque
// publishes its elements by release and acquire, which TSan does model;
// the policy switch's handshake rests on the fences alone, so TSan does
// not check it: the model check does, docs/architecture.md, section 3).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_FENCE_H
#define WEFT_RUNTIME_FENCE_H

#include <atomic>
#include <cstdint>

namespace weft {

/// How a deque pays for the fence pair of pop and steal.
enum class FencePolicy : std::uint8_t {
  Adaptive, // unfenced pops until a thief asks for fenced ones (the default)
  Fenced,   // every pop fenced, thieves fence too (WEFT_FENCES=symmetric)
  Unfenced, // no pop fenced, a membarrier per steal (WEFT_FENCES=asymmetric)
};

namespace detail {
/// Set once by fences_init(), before any worker's deque exists, and
/// read-only afterwards (threads started later see it through the thread
/// creation's happens-before).
extern FencePolicy DefaultFencePolicy;
} // namespace detail

/// Chooses the fence policy (WEFT_FENCES, membarrier support) and registers
/// the process for expedited membarriers. Called once, at pool start.
void fences_init();

/// Whether this process may call heavy_fence() as a membarrier: true once
/// fences_init() registered it.
bool membarrier_available();

/// The policy of a deque made now.
inline FencePolicy default_fence_policy() {
#ifdef WEFT_SYMMETRIC_FENCES
  return FencePolicy::Fenced;
#else
  return detail::DefaultFencePolicy;
#endif
}

/// The unfenced owner's side of the pair: a compiler barrier.
inline void light_fence() { std::atomic_signal_fence(std::memory_order_seq_cst); }

/// A full fence: either side of the fenced pair. On x86-64 a locked no-op
/// on the stack, as GCC and Linux issue for a full barrier: it orders as
/// mfence does for ordinary memory and costs a quarter of it on current
/// processors. ThreadSanitizer sees the standard fence. Elsewhere the
/// standard fence: on AArch64 `dmb ish`, for which the instruction set has
/// no cheaper full barrier.
inline void full_fence() {
#if defined(__x86_64__) && !defined(WEFT_SYMMETRIC_FENCES)
  asm volatile("lock orq $0, (%%rsp)" ::: "memory", "cc");
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

/// The thief's side of the unfenced pair (and the sleeper's, worker.cpp):
/// orders it against every light_fence() in the process. A membarrier
/// where the process registered for one, else a full fence.
void heavy_fence();

} // namespace weft

#endif // WEFT_RUNTIME_FENCE_H
