//===- deque.h - Chase-Lev work-stealing deque ----------------------------===//
//
// The owner pushes and pops at the bottom; thieves steal the oldest element
// at the top. Chase and Lev, "Dynamic circular work-stealing deque" (SPAA
// 2005), with the memory orders of Le, Pop, Cohen and Zappa Nardelli,
// "Correct and efficient work-stealing for weak memory models" (PPoPP 2013),
// except that the pop/steal fence pair is asymmetric (fence.h): the owner
// pays a compiler barrier, the thief a membarrier.
//
// Indices are 64-bit and only grow, so they never wrap in practice and
// `bottom - top` is the size. The ring grows by doubling when full; a thief
// may still be reading the old ring, so old rings are kept until the deque
// is destroyed. Their total is less than the live ring's size, so the
// deque's memory is at most twice its peak occupancy.
//
// Why our own deque rather than a library's: the fences are the whole cost
// of a spawn, and no packaged deque offers the asymmetric pair; the owner's
// pop must also tell "taken back" from "stolen" without touching the
// element (docs/architecture.md, section 3).
//
// Elements are trivially copyable and pointer-sized (frames, in Weft).
//
// Marks. push() returns the push's mark, bottom after it, and the fast
// clone's pop takes it back (pop_owned(Mark)): the pop stores Mark - 1
// instead of loading bottom to decrement it, which would wait on the store
// of the spawn before. The argument that this changes nothing: only the
// owner writes bottom, and between a push of element E and the pop that
// undoes it, the owner's other pushes are each undone by a pop. A pop that
// takes its element while older ones lie below it leaves bottom one lower;
// a pop that finds its element stolen, or races for it as the last one,
// leaves bottom where it found it (pop_fenced()). Both of those happen only
// when every older element, E included, was stolen, since thieves take the
// oldest first. So if E was not stolen, bottom is E's mark again at E's
// pop, and storing Mark - 1 is storing the loaded bottom minus one. If E
// was stolen, bottom may differ (a failed pop above E left it raised, or
// E's pop runs on another thread's deque after its stack moved); the pop
// loads bottom anyway, to compare it with the mark, and when they differ
// it is the plain pop_owned(), as if there were no mark. The comparison
// is a predicted branch, so the store does not wait for the load.
//
// Fence modes. With symmetric fences (fence.h) no pop may decide on an
// unfenced load of top. Rather than have the pop inlined at every spawn
// test the fence mode, such a deque stores top biased by 2^62 (far above
// any index), so that the inlined comparison of the loaded top with the
// new bottom fails whatever the load returned, and the pop goes on in
// pop_fenced(), which fences and loads top again. Everything else reads top
// through top_index(), which takes the bias off; a thief's CAS moves the
// biased word by one just as it would the plain one.
//
// Peak size. The deque records the most elements it held at once, as its
// owner saw them when pushing, for WEFT_STATS. Counting at every push would
// put work on the spawn path, so the owner's private bound on bottom doubles
// as a trap: it is kept low enough that try_push() fails exactly when the
// push would take the deque past its recorded peak, and push_slow() records
// the new peak. The trap fires once per new peak, plus at most once per steal
// (a steal moves the real top, which the copy does not follow), never per
// spawn.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_DEQUE_H
#define WEFT_RUNTIME_DEQUE_H

#include "cache_line.h"
#include "fence.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace weft {

enum class StealResult {
  Empty,   // nothing to steal
  Lost,    // another thief, or the owner, took the element first
  Success,
};

template <typename T> class Deque {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(void *),
                "deque elements are pointer-sized and trivially copyable");

public:
  static constexpr std::int64_t kInitialCapacity = 256;

  Deque() : ring_(Ring::create(kInitialCapacity, nullptr)) {
    // Before any thread but the constructing one can see the deque.
    top_.store(symmetric_bias_, std::memory_order_relaxed);
  }
  ~Deque() {
    Ring *R = ring_.load(std::memory_order_relaxed);
    while (R) {
      Ring *Older = R->older;
      Ring::destroy(R);
      R = Older;
    }
  }
  Deque(const Deque &) = delete;
  Deque &operator=(const Deque &) = delete;

  /// Owner only. Never fails: grows the ring when full. Returns the push's
  /// mark, for pop_owned().
  std::int64_t push(T X) {
    std::int64_t Mark;
    if (!try_push(X, Mark))
      Mark = push_slow(X);
    return Mark;
  }

  /// Owner only. Pushes unless the ring looks full, and sets \p Mark to the
  /// push's mark. The spawn path inlines this much (runtime/fast_path.cpp)
  /// and calls push() when it fails.
  bool try_push(T X, std::int64_t &Mark) {
    std::int64_t B = bottom_.load(std::memory_order_relaxed);
    // The limit comes from a stale top, which only makes the ring look
    // fuller (top never decreases), so the push reads the thieves' cache
    // line only when the ring looks full, not on every spawn.
    if (B >= push_limit_)
      return false;
    publish(ring_.load(std::memory_order_relaxed), B, X);
    Mark = B + 1;
    return true;
  }

  /// Owner only. Takes back the newest element; returns T() if the deque is
  /// empty or a thief took the last element.
  T pop() {
    std::int64_t B;
    if (reserve_bottom(B)) // more than one element: no thief can reach B
      return ring_.load(std::memory_order_relaxed)->get(B);
    return pop_fenced(B);
  }

  /// Owner only. As pop() != T(), without reading the element: whether the
  /// newest element came back or a thief took it. This is the fast clone's
  /// pop after every spawned call, inlined there (runtime/fast_path.cpp).
  ///
  /// \p Mark is what the push of that element returned: bottom right after
  /// it, which is bottom again when the pop comes, unless a thief took the
  /// element (then a failed pop above it may have moved bottom, or the pop
  /// may even run on another thread's deque). The pop stores Mark - 1
  /// without waiting for a load of bottom: every push and pop of a thread
  /// stores bottom, so loading it back here would chain each spawn to the
  /// one before through a store-to-load forwarding (docs/benchmarks.md has
  /// the measurement). The load still happens, but only to confirm the
  /// mark, which the processor predicts; when bottom is not the mark, the
  /// pop is the plain one below.
  bool pop_owned(std::int64_t Mark) {
    if (__builtin_expect(bottom_.load(std::memory_order_relaxed) != Mark, 0))
      return pop_owned();
    std::int64_t B = Mark - 1;
    if (__builtin_expect(reserve(B), 1))
      return true;
    return pop_fenced(B) != T();
  }

  /// Owner only. pop_owned(Mark) without a mark: takes bottom as it is.
  bool pop_owned() {
    std::int64_t B;
    if (__builtin_expect(reserve_bottom(B), 1))
      return true;
    return pop_fenced(B) != T();
  }

  /// Owner only: the newest push's mark: bottom, which only the owner
  /// moves.
  std::int64_t owner_mark() const {
    return bottom_.load(std::memory_order_relaxed);
  }

  /// Any thread but the owner. Takes the oldest element into \p Out.
  StealResult steal(T &Out) {
    // Acquire: pairs with the seq_cst CAS of an earlier thief, so that the
    // slot we read is not one the owner reused before that thief took it.
    std::int64_t Word = top_.load(std::memory_order_acquire);
    std::int64_t T0 = top_index(Word);
    // A cheap look first: an empty-looking deque is not worth a membarrier.
    // A stale view only makes this steal miss, as if it had come earlier.
    if (bottom_.load(std::memory_order_relaxed) <= T0)
      return StealResult::Empty;
    heavy_fence(); // pairs with the owner's fence in reserve_bottom()
    // Acquire: pairs with push's release store; the element is visible.
    std::int64_t B = bottom_.load(std::memory_order_acquire);
    if (B <= T0)
      return StealResult::Empty;
    // Acquire: pairs with grow()'s release store of the new ring. An older
    // ring still holds slot T0 unchanged if T0 is still the top.
    Ring *R = ring_.load(std::memory_order_acquire);
    T X = R->get(T0);
    // seq_cst: one total order with the owner's CAS on the last element.
    if (!top_.compare_exchange_strong(Word, Word + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed))
      return StealResult::Lost;
    Out = X;
    return StealResult::Success;
  }

  /// Any thread. A hint: may be stale in either direction.
  bool maybe_nonempty() const {
    return bottom_.load(std::memory_order_relaxed) >
           top_index(top_.load(std::memory_order_relaxed));
  }

  /// Owner only (exact for the owner, which alone moves bottom).
  std::int64_t size_hint() const {
    std::int64_t N = bottom_.load(std::memory_order_relaxed) -
                     top_index(top_.load(std::memory_order_relaxed));
    return N > 0 ? N : 0;
  }

  /// Any thread, for diagnostics (hang_watch.h): both ends as last
  /// written, read relaxed, so possibly from different moments.
  struct Ends {
    std::int64_t top, bottom;
  };
  Ends ends() const {
    return {top_index(top_.load(std::memory_order_relaxed)),
            bottom_.load(std::memory_order_relaxed)};
  }

  /// Any thread, for diagnostics: the frames the deque held at about this
  /// moment (never negative).
  std::int64_t size_seen() const {
    Ends E = ends();
    return E.bottom > E.top ? E.bottom - E.top : 0;
  }

  /// Owner only: slots in the live ring.
  std::int64_t capacity() const {
    return ring_.load(std::memory_order_relaxed)->capacity;
  }

  /// Any thread: the most elements the deque has held at once, counted by
  /// the owner after each push against the newest top it had read. A
  /// steal the owner has not yet seen counts as still there, so under
  /// thieves this may exceed the true peak by the steals in flight; it is
  /// exact for a deque without thieves. Exact once the owner has stopped.
  std::int64_t peak_size() const {
    return peak_.load(std::memory_order_relaxed);
  }

  /// Owner only: pushes that took the slow path (a new peak, a steal since
  /// the last slow push, or a full ring).
  std::int64_t slow_pushes() const { return slow_pushes_; }

  /// Owner only: pops that went on in pop_fenced() (the last element, or
  /// any pop with symmetric fences).
  std::int64_t fenced_pops() const { return fenced_pops_; }

private:
  /// A power-of-two circular array of slots; slot i is index i mod capacity.
  /// Slots are atomics because a thief may read one the owner is about to
  /// overwrite: that thief's CAS then fails and it discards what it read.
  struct Ring {
    std::int64_t capacity;
    Ring *older; // the ring this one replaced, kept for late thieves
    std::atomic<T> slots[1];

    static Ring *create(std::int64_t Capacity, Ring *Older) {
      std::size_t Bytes = offsetof(Ring, slots) + sizeof(std::atomic<T>) * Capacity;
      void *Memory = ::operator new(Bytes, std::align_val_t{kCacheLineBytes});
      auto *R = static_cast<Ring *>(Memory);
      R->capacity = Capacity;
      R->older = Older;
      for (std::int64_t I = 0; I < Capacity; ++I)
        new (&R->slots[I]) std::atomic<T>(T());
      return R;
    }
    static void destroy(Ring *R) {
      ::operator delete(R, std::align_val_t{kCacheLineBytes});
    }

    // Relaxed: ordering comes from bottom (push/steal) and top (the CAS).
    void put(std::int64_t I, T X) {
      slots[I & (capacity - 1)].store(X, std::memory_order_relaxed);
    }
    T get(std::int64_t I) const {
      return slots[I & (capacity - 1)].load(std::memory_order_relaxed);
    }
  };

  /// Owner only: stores \p X in slot \p B and makes it stealable.
  void publish(Ring *R, std::int64_t B, T X) {
    // The owner's copy of the index mask (R's own, kept by grow()) saves
    // the inlined push a dependent load.
    R->slots[B & mask_].store(X, std::memory_order_relaxed);
    // Release: a thief that sees the new bottom sees the element, and
    // everything the owner wrote before the push (the frame's contents).
    bottom_.store(B + 1, std::memory_order_release);
  }

  /// Owner only: push() when try_push() refused, because the ring looked
  /// full or the push would pass the recorded peak. Takes a fresh look at
  /// top, grows the ring if it really is full, and records the new size.
  /// Returns the push's mark.
  std::int64_t push_slow(T X) {
    ++slow_pushes_;
    std::int64_t B = bottom_.load(std::memory_order_relaxed);
    // Acquire: a slot below `top` may be reused only after the thief that
    // took it has read it (its CAS on top is seq_cst). Every slot try_push
    // overwrites lies below the top seen here.
    std::int64_t Top = top_index(top_.load(std::memory_order_acquire));
    Ring *R = ring_.load(std::memory_order_relaxed);
    if (B - Top > mask_)
      R = grow(R, Top, B);
    publish(R, B, X);
    if (B + 1 - Top > peak_.load(std::memory_order_relaxed))
      // Relaxed: only the owner writes; readers want a statistic.
      peak_.store(B + 1 - Top, std::memory_order_relaxed);
    arm_peak_trap(Top);
    return B + 1;
  }

  /// Owner only: sets the private bound on bottom from \p Top, a top the
  /// owner has read with acquire or itself written: try_push() fails when
  /// bottom reaches Top + peak, that is when the size counted from \p Top
  /// reaches the peak (never more than the capacity). A stale Top is always
  /// safe: it only makes the ring look fuller than it is.
  void arm_peak_trap(std::int64_t Top) {
    push_limit_ = Top + peak_.load(std::memory_order_relaxed);
  }

  /// Owner only: the first half of a pop. Moves bottom down over the newest
  /// element (\p B is its index) and reads top into \p T0. True when more
  /// than one element was there, so that no thief can reach slot B and the
  /// pop is done; otherwise pop_fenced() must finish it.
  ///
  /// With asymmetric fences the compiler barrier is the owner's whole side
  /// of the pair with steal(). With symmetric fences the load of top is not
  /// fenced, so its value must not decide anything: the test compares the
  /// biased word, which fails whatever the load returned, and pop_fenced()
  /// issues the full fence and loads top again (fence.h; Fence modes above).
  bool reserve_bottom(std::int64_t &B) {
    B = bottom_.load(std::memory_order_relaxed) - 1;
    return reserve(B);
  }

  /// Owner only: reserve_bottom() with the new bottom \p B given (bottom
  /// minus one, which the caller knows without loading it).
  bool reserve(std::int64_t B) {
    // Relaxed: thieves order this store against their read of bottom with
    // the fence pair, not with release/acquire.
    bottom_.store(B, std::memory_order_relaxed);
    light_fence(); // pairs with heavy_fence() in steal()
    return top_.load(std::memory_order_relaxed) < B;
  }

  /// The index a word of top_ stands for (Fence modes above).
  std::int64_t top_index(std::int64_t Word) const {
    return Word - symmetric_bias_;
  }

  /// Owner only: the rest of a pop that reserve_bottom() could not finish:
  /// at most one element was left, or the fences are symmetric. Kept out of
  /// line: it runs when the deque is nearly empty, not per spawn (in
  /// symmetric mode on every pop, where the fence costs more than the call).
  __attribute__((noinline)) T pop_fenced(std::int64_t B) {
    ++fenced_pops_;
    if (symmetric_bias_ != 0)
      symmetric_fence(); // pairs with heavy_fence() in steal()
    // Relaxed, as in reserve_bottom(): ordered by the fence pair.
    std::int64_t Word = top_.load(std::memory_order_relaxed);
    std::int64_t T0 = top_index(Word);
    if (T0 < B) // more than one element after all
      return ring_.load(std::memory_order_relaxed)->get(B);
    if (T0 > B) { // was empty
      bottom_.store(B + 1, std::memory_order_relaxed);
      return T();
    }
    T X = ring_.load(std::memory_order_relaxed)->get(B);
    // The last element: race the thieves for it on top. seq_cst keeps the
    // CAS in the single total order with the thieves' CAS.
    bool Won = top_.compare_exchange_strong(Word, Word + 1, std::memory_order_seq_cst,
                                            std::memory_order_relaxed);
    bottom_.store(B + 1, std::memory_order_relaxed);
    if (!Won)
      return T();
    // The deque is empty at T0 + 1, a top our own CAS wrote. Without this
    // the trap would count every taken-back last element as a moved top,
    // and a loop of spawns would take the slow push every `peak` spawns.
    arm_peak_trap(T0 + 1);
    return X;
  }

  /// Owner only: doubles the ring, copying the live elements [Top, Bottom).
  Ring *grow(Ring *Old, std::int64_t Top, std::int64_t Bottom) {
    Ring *New = Ring::create(Old->capacity * 2, Old);
    for (std::int64_t I = Top; I < Bottom; ++I)
      New->put(I, Old->get(I));
    // Release: a thief that loads the new ring sees the copied slots.
    ring_.store(New, std::memory_order_release);
    mask_ = New->capacity - 1;
    return New;
  }

  // Thieves write top; only the owner writes bottom and ring. Each on its
  // own cache line, so that steals do not invalidate the owner's bottom.
  // top_ holds the index plus symmetric_bias_ (Fence modes above).
  alignas(kCacheLineBytes) std::atomic<std::int64_t> top_{0};
  alignas(kCacheLineBytes) std::atomic<std::int64_t> bottom_{0};
  std::atomic<Ring *> ring_;
  // Owner-private copies beside bottom: the live ring's index mask, and the
  // bottom at which a push must take the slow path, from a top no newer
  // than the real one and the recorded peak (arm_peak_trap()); at first the
  // peak is 0, so the first push traps.
  std::int64_t mask_ = kInitialCapacity - 1;
  std::int64_t push_limit_ = 0;
  // 0 with asymmetric fences; otherwise 2^62, far above any index (they
  // stay far below it), added to top_ so that no unfenced pop can decide
  // (Fence modes above). Set once: the fence mode is fixed before any
  // worker's deque exists.
  std::int64_t symmetric_bias_ = fences_asymmetric() ? 0 : std::int64_t(1) << 62;
  std::int64_t slow_pushes_ = 0;
  std::int64_t fenced_pops_ = 0;
  // Written by the owner only, read by statistics from any thread.
  std::atomic<std::int64_t> peak_{0};
};

} // namespace weft

#endif // WEFT_RUNTIME_DEQUE_H
