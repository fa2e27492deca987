//===- deque.h - Chase-Lev work-stealing deque ----------------------------===//
//
// The owner pushes and pops at the bottom; thieves steal the oldest element
// at the top. Chase and Lev, "Dynamic circular work-stealing deque" (SPAA
// 2005), with the memory orders of Le, Pop, Cohen and Zappa Nardelli,
// "Correct and efficient work-stealing for weak memory models" (PPoPP 2013),
// except for who pays for the pop/steal fence pair (fence.h): while thieves
// come rarely the owner pays a compiler barrier and a thief a membarrier;
// while they come often, each side a full fence (Fence policies below).
//
// Indices are 64-bit and only grow, so they never wrap in practice and
// `bottom - top` is the size. The ring grows by doubling when full; a thief
// may still be reading the old ring, so old rings are kept until the deque
// is destroyed. Their total is less than the live ring's size, so the
// deque's memory is at most twice its peak occupancy.
//
// Why our own deque rather than a library's: the fences are the whole cost
// of a spawn, and no packaged deque offers the asymmetric pair, let alone
// one that switches; the owner's
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
// Fence policies. The pair of pop and steal needs a fence on each side
// (fence.h); a deque is either unfenced (the owner's pop has a compiler
// barrier, each steal a membarrier) or fenced (a full fence on each side).
// The owner's inlined pop never tests which: top carries the mode in two
// tag bits far above any index, and a tagged word compares greater than
// any bottom, so the inlined "more than one element" test fails and the pop
// goes on in pop_fenced(), which fences and loads top again. Everything
// else reads top's index through top_index(); a thief's CAS moves the
// tagged word by one just as it would the plain one.
//
//   tag of top        owner's pops          a thief's fence
//   none              unfenced              a membarrier, or a request
//   Requested         fenced                a membarrier, or wait
//   Fenced            fenced                a full fence
//
// An Adaptive deque (the default) switches by a handshake on top. A thief
// that finds it untagged does not pay a membarrier at once: it tags it
// Requested (a CAS) and tries elsewhere. The owner's next pop sees the tag,
// fences, and confirms with a CAS from Requested to Fenced; from then on
// thieves fence only. If the owner does not pop within the thief's patience
// (it runs a long leaf), the thief pays the membarrier after all. The owner
// drops the tag (a CAS back to none) after kQuietPops fenced pops during
// which top did not move: thieves have stopped coming. A Fenced deque
// (WEFT_FENCES=symmetric) is tagged Fenced for good; an Unfenced one
// (WEFT_FENCES=asymmetric) never gets a tag.
//
// Why a thief that fences only cannot take what an unfenced pop took. Let
// pop P decide from an untagged top whose index t is below its slot B, and
// take slot B without a CAS; let steal S load a Fenced top of index B,
// fence, load bottom, and CAS top from index B to B + 1. Every write to top
// is a read-modify-write (a CAS) but the constructor's. Indices never
// decrease, so P's value (index t < B) comes before S's in top's
// modification order. Let C be the last confirmation (Requested to Fenced)
// at or before S's value; between C and S's value no write drops the tag
// (a later confirmation would follow it), so P's untagged value comes
// before C. C is the owner's own write: had C been sequenced before P, P
// would read C's value or a later one. So P, with its store of bottom, is
// sequenced before the later pop_fenced() that wrote C, and so before the
// full fence F with which that pop began. S loads C's value or a later read-modify-write's (C's release sequence,
// were C a release) and then fences, so F synchronizes with S's fence
// (C++ [atomics.fences]) and P's bottom store happens before S's load of
// bottom. S reads B, sees no element at B, or a later
// bottom, from a later push into slot B, whose element it then takes
// instead (its load of the slot follows its acquire load of bottom). A pop
// that decides on a fenced load pairs with a fencing thief as the textbook
// does, and with a membarrier thief as fence.h says; an unfenced pop pairs
// with a membarrier thief as fence.h says. A tag change between a thief's
// load and CAS fails the CAS (Lost; the element stays). Should the word
// come back to the very value the thief loaded (the tag dropped and
// confirmed again, top unmoved), the CAS succeeds, and rightly: nothing
// above rests on more than the index and the value the thief loaded, and
// no pop in between took slot B without a CAS, since each loaded an index
// of at least B. The owner's CAS for the last element retries when only a
// tag changed (take_last()), so a request never loses an element.
// deque_test.cpp checks the switch by randomized interleavings, also under
// ThreadSanitizer. The orderings themselves are checked exhaustively on a
// C11 transcription of this file (test/deque_model, scripts/model_check.sh)
// under RC11 and under IMM, which allows what Arm's processors do: every
// element exactly once at every fence policy. Weakened alone, each ordering
// argued here loses or duplicates an element there, but for two acquires
// (push_slow(), take_last()) that rule out load buffering, which both
// models forbid and C++ does not (docs/architecture.md, section 3); steal()'s
// release CAS, their other half, fails only under IMM, where a thief's read
// of the slot may pass a relaxed CAS. What
// the fences order already is relaxed: a seq_cst fence acquires for the
// loads before it and releases for the stores after it.
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
#include "stats.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace weft {

enum class StealResult {
  Empty,   // nothing to steal
  Lost,    // another thief, or the owner, took the element first, or
           // the owner switched the deque's fences meanwhile
  Requested, // the deque is unfenced: the thief asked its owner for fenced
             // pops rather than pay a membarrier; try again later
  Success,
};

/// What a thief keeps between steals: since when its requests have gone
/// unanswered, and what its steals cost. One per thief thread.
class Thief {
public:
  /// How long a thief waits for an owner to answer its request before it
  /// pays the membarrier: the owner answers at its next pop, after at most
  /// a leaf of work, so this bounds what a long leaf costs a steal. About
  /// what a membarrier costs the thief on a virtual machine of two vCPUs
  /// (docs/architecture.md, section 2), so that waiting never costs much
  /// more than paying at once would have.
  static constexpr std::int64_t kPatienceNs = 20'000;

  /// \p PatienceNs other than kPatienceNs is for tests.
  explicit Thief(std::int64_t PatienceNs = kPatienceNs)
      : patience_ns_(PatienceNs) {}

  /// The thief is not waiting for an answer any more: a steal succeeded,
  /// or it went through its victims without making or meeting a request.
  void settled() { waiting_since_ns_ = 0; }

  /// Any thread, for statistics: steals that paid a membarrier, and
  /// requests for fenced pops made.
  std::uint64_t membarriers() const { return membarriers_.get(); }
  std::uint64_t requests() const { return requests_.get(); }

private:
  template <typename> friend class Deque;

  /// Whether the thief has waited long enough for answers to its requests,
  /// counted from the first unanswered one since it last settled.
  bool out_of_patience();

  std::int64_t patience_ns_;
  std::int64_t waiting_since_ns_ = 0;
  // Only this thief writes them (stats.h).
  Counter membarriers_;
  Counter requests_;
};

template <typename T> class Deque {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(void *),
                "deque elements are pointer-sized and trivially copyable");

public:
  static constexpr std::int64_t kInitialCapacity = 256;

  /// Fenced pops in a row during which top did not move, after which an
  /// Adaptive deque drops its Fenced tag: a few microseconds of fences
  /// spent for each time thieves stop coming.
  static constexpr std::int64_t kQuietPops = 4096;

  /// \p QuietPops other than kQuietPops is for tests, which switch far
  /// more often to try more interleavings of the switch.
  explicit Deque(FencePolicy Policy = default_fence_policy(),
                 std::int64_t QuietPops = kQuietPops)
      : ring_(Ring::create(kInitialCapacity, nullptr)),
        // Unfenced pops are sound only against thieves' membarriers.
        policy_(membarrier_available() ? Policy : FencePolicy::Fenced),
        quiet_limit_(QuietPops) {
    // Before any thread but the constructing one can see the deque.
    top_.store(policy_ == FencePolicy::Fenced ? kFencedTag : 0,
               std::memory_order_relaxed);
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
    std::int64_t B;
    switch (pop_owned_inline(Mark, B)) {
    case OwnedPop::Taken:
      return true;
    case OwnedPop::Unmarked:
      return pop_owned();
    case OwnedPop::Fenced:
      break;
    }
    return pop_owned_fenced(B);
  }

  /// Owner only: the end of a pop that pop_owned_inline() left Fenced,
  /// with bottom reserved at \p B.
  bool pop_owned_fenced(std::int64_t B) { return pop_fenced(B) != T(); }

  /// How pop_owned_inline() left a pop.
  enum class OwnedPop {
    Taken,    ///< the element came back: done
    Unmarked, ///< bottom was not the mark, untouched: pop_owned() decides
    Fenced,   ///< bottom is \p B, reserved: pop_fenced(B) decides
  };

  /// The part of pop_owned(Mark) that runs on every spawn, which the fast
  /// path inlines (runtime/fast_path.cpp) while the rest stays in libweft:
  /// copied into every object that spawns, the rare paths were some 400
  /// bytes of each.
  OwnedPop pop_owned_inline(std::int64_t Mark, std::int64_t &B) {
    if (__builtin_expect(bottom_.load(std::memory_order_relaxed) != Mark, 0))
      return OwnedPop::Unmarked;
    B = Mark - 1;
    if (__builtin_expect(reserve(B), 1))
      return OwnedPop::Taken;
    return OwnedPop::Fenced;
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
  /// \p Stealer is the calling thread's own.
  StealResult steal(T &Out, Thief &Stealer) {
    // Relaxed: on every path that reads on (bottom, the ring, a slot), the
    // fence in fence_before_bottom() follows this load and acquires for
    // it; a thief that read the owner's confirmation of a request (or a
    // later word) thereby synchronizes with the owner's fence before that
    // confirmation (Fence policies). The other paths only compare the
    // word.
    std::int64_t Word = top_.load(std::memory_order_relaxed);
    std::int64_t T0 = top_index(Word);
    // A cheap look first: an empty-looking deque is not worth a fence.
    // A stale view only makes this steal miss, as if it had come earlier.
    if (bottom_.load(std::memory_order_relaxed) <= T0)
      return StealResult::Empty;
    if (!fence_before_bottom(Word, Stealer))
      return StealResult::Requested;
    // Acquire: pairs with push's release store; the element is visible.
    // The fence before does not do it: the cheap look may have read a
    // bottom older than the slot's last write (the owner took an element
    // back and pushed another into its slot), and the fence orders only
    // what was read before it.
    std::int64_t B = bottom_.load(std::memory_order_acquire);
    if (B <= T0)
      return StealResult::Empty;
    // Acquire: pairs with grow()'s release store of the new ring. An older
    // ring still holds slot T0 unchanged if T0 is still the top.
    Ring *R = ring_.load(std::memory_order_acquire);
    T X = R->get(T0);
    // Release: our read of the slot comes before the owner reuses the
    // slot, which it does only after an acquire of a top past ours
    // (push_slow(), take_last()). No acquire: the element is read and
    // visible already. Of the CASes from one index, the thieves' and the
    // owner's for the last element, one succeeds whatever their orders
    // (each reads the latest word, and a success moves the index on), so
    // that race needs no total order either.
    if (!top_.compare_exchange_strong(Word, Word + 1, std::memory_order_release,
                                      std::memory_order_relaxed))
      return StealResult::Lost;
    Stealer.settled();
    Out = X;
    return StealResult::Success;
  }

  /// Whether thieves of this deque fence only (its tag is Fenced now).
  bool fenced() const {
    return (top_.load(std::memory_order_relaxed) & kFencedTag) == kFencedTag;
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
  /// any pop while the deque is tagged).
  std::int64_t fenced_pops() const { return fenced_pops_; }

  /// Any thread, for statistics: how often the owner switched to fenced
  /// pops (confirmed a request), and back. Exact once the owner stopped.
  std::uint64_t switches_to_fenced() const { return switches_to_fenced_.get(); }
  std::uint64_t switches_to_unfenced() const {
    return switches_to_unfenced_.get();
  }

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
    // took it has read it (its CAS on top is a release). Every slot
    // try_push overwrites lies below the top seen here. Both models of the
    // model check forbid the load buffering this rules out, so no run
    // there needs it; C++ does not forbid it.
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
  /// The compiler barrier is the owner's whole side of the unfenced pair
  /// with steal(). A tagged top fails the comparison whatever its index
  /// (Fence policies above): pop_fenced() issues the full fence and loads
  /// top again, and only that load decides.
  bool reserve_bottom(std::int64_t &B) {
    B = bottom_.load(std::memory_order_relaxed) - 1;
    return reserve(B);
  }

  /// Owner only: reserve_bottom() with the new bottom \p B given (bottom
  /// minus one, which the caller knows without loading it).
  bool reserve(std::int64_t B) {
    // Thieves order this store against their read of bottom with the fence
    // pair. Release besides: a thief may read this value of bottom rather
    // than a push's and then read the slot of an element pushed before it,
    // and since C++20 a release sequence (the push's store of bottom) no
    // longer extends to its thread's later plain stores, so nothing else
    // would make that element visible to the thief. A model checker finds
    // the stale slot under RC11 and IMM with this store relaxed
    // (test/deque_model, scripts/model_check.sh). On x86-64 a release store
    // is the plain store it was; on AArch64 it is stlr, not str.
    bottom_.store(B, std::memory_order_release);
    light_fence(); // pairs with heavy_fence() in steal()
    return top_.load(std::memory_order_relaxed) < B;
  }

  // Top's tags (Fence policies above), far above any index: an index
  // reaches 2^61 after 2^61 steals, never.
  static constexpr std::int64_t kOwnerFences = std::int64_t(1) << 62;
  static constexpr std::int64_t kThievesFence = std::int64_t(1) << 61;
  static constexpr std::int64_t kRequestedTag = kOwnerFences;
  static constexpr std::int64_t kFencedTag = kOwnerFences | kThievesFence;
  static constexpr std::int64_t kIndexMask = kThievesFence - 1;

  /// The index a word of top_ stands for.
  static std::int64_t top_index(std::int64_t Word) { return Word & kIndexMask; }

  /// A thief's side of the fence pair, after it loaded top as \p Word and
  /// before it loads bottom. False when it asked the owner for fenced pops
  /// instead (or found that it already asked), and must not go on.
  bool fence_before_bottom(std::int64_t Word, Thief &Stealer) {
    std::int64_t Tag = Word & kFencedTag;
    if (Tag == kFencedTag) {
      full_fence(); // pairs with the owner's full_fence() in pop_fenced()
      return true;
    }
    if (policy_ == FencePolicy::Adaptive && !Stealer.out_of_patience()) {
      // Relaxed: the request publishes nothing, this thief reads nothing
      // after it (it gives up this steal), and the owner acts on the tag
      // after a fence of its own. A failure means the word moved (a
      // steal, or another thief's request): either way, not now.
      if (Tag == 0 && top_.compare_exchange_strong(Word, Word | kRequestedTag,
                                                   std::memory_order_relaxed,
                                                   std::memory_order_relaxed))
        Stealer.requests_.add();
      return false;
    }
    heavy_fence(); // pairs with light_fence() in reserve()
    Stealer.membarriers_.add();
    return true;
  }

  /// Owner only: the rest of a pop that reserve_bottom() could not finish:
  /// at most one element was left, or top is tagged. Kept out of line: it
  /// runs when the deque is nearly empty or thieves come often, not per
  /// spawn.
  __attribute__((noinline)) T pop_fenced(std::int64_t B) {
    ++fenced_pops_;
    // Relaxed, as reserve()'s load: ordered by the fence pair.
    std::int64_t Word = top_.load(std::memory_order_relaxed);
    if (Word & kOwnerFences) {
      full_fence(); // pairs with the thieves' full_fence() or heavy_fence()
      Word = answer_thieves(top_.load(std::memory_order_relaxed));
    }
    std::int64_t T0 = top_index(Word);
    if (T0 < B) // more than one element after all
      return ring_.load(std::memory_order_relaxed)->get(B);
    // Bottom back to B + 1 below, relaxed, unlike reserve()'s store: by
    // then top has passed B (a steal or our CAS), so a thief that reads
    // this value either sees top past B too and finds no element, or
    // loaded top before it moved, and then its CAS fails.
    if (T0 > B) { // was empty
      bottom_.store(B + 1, std::memory_order_relaxed);
      return T();
    }
    T X = ring_.load(std::memory_order_relaxed)->get(B);
    bool Won = take_last(Word);
    bottom_.store(B + 1, std::memory_order_relaxed);
    if (!Won)
      return T();
    // The deque is empty at T0 + 1, a top our own CAS wrote. Without this
    // the trap would count every taken-back last element as a moved top,
    // and a loop of spawns would take the slow push every `peak` spawns.
    arm_peak_trap(T0 + 1);
    return X;
  }

  /// Owner only: races the thieves for the last element, whose index is
  /// top's in \p Word, on top. True if the owner got it.
  bool take_last(std::int64_t Word) {
    const std::int64_t Index = top_index(Word);
    // Acquire, as push_slow()'s load of top: pairs with the thieves'
    // release CAS, so that their reads of the slots below Index come
    // before this owner's pushes into them, which after
    // arm_peak_trap(Index + 1) do not load top. Of the CASes from one
    // index one succeeds, whatever its order (steal()). A failure with the
    // index unchanged was
    // a thief's request, not a steal: the element is still there, so race
    // again.
    while (!top_.compare_exchange_strong(Word, Word + 1,
                                         std::memory_order_acquire,
                                         std::memory_order_relaxed))
      if (top_index(Word) != Index)
        return false;
    return true;
  }

  /// Owner only, after a full fence, with top's tagged \p Word loaded
  /// after it: confirms a request, or, on a Fenced Adaptive deque whose
  /// top has stood still for kQuietPops fenced pops, drops the tag.
  /// Returns top's word as the owner now knows it, fenced (the fence
  /// before, or the CAS that wrote it): the pop decides from it.
  std::int64_t answer_thieves(std::int64_t Word) {
    if ((Word & kFencedTag) == kRequestedTag) {
      // Relaxed: the full fence before it (pop_fenced()) releases for it.
      // A thief that loads a Fenced word, this CAS's or a later one's, and
      // fences synchronizes with that fence, so it sees every store of
      // bottom this owner made before, in unfenced pops among them (Fence
      // policies). Only steals move the word meanwhile; the tag stays
      // Requested.
      while (!top_.compare_exchange_weak(Word, Word | kThievesFence,
                                         std::memory_order_relaxed,
                                         std::memory_order_relaxed)) {
      }
      switches_to_fenced_.add();
      quiet_pops_ = 0;
      quiet_index_ = top_index(Word);
      return Word | kThievesFence;
    }
    if (policy_ != FencePolicy::Adaptive)
      return Word;
    if (top_index(Word) != quiet_index_) { // thieves came since
      quiet_index_ = top_index(Word);
      quiet_pops_ = 0;
      return Word;
    }
    if (++quiet_pops_ < quiet_limit_)
      return Word;
    quiet_pops_ = 0;
    // Relaxed, as the confirmation, after the full fence: it tells
    // thieves to pay by a membarrier or a request again, and fails the CAS
    // of a thief that loaded the tagged word (unless the word comes back
    // to that value, which is harmless: Fence policies); neither needs an
    // order.
    // On failure Word is the fresh word, still Fenced (only the owner drops
    // a tag) but with a new index: a steal, so stay fenced.
    if (!top_.compare_exchange_strong(Word, top_index(Word),
                                      std::memory_order_relaxed,
                                      std::memory_order_relaxed)) {
      quiet_index_ = top_index(Word);
      return Word;
    }
    switches_to_unfenced_.add();
    return top_index(Word);
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
  // top_ holds the index plus the tags (Fence policies above).
  alignas(kCacheLineBytes) std::atomic<std::int64_t> top_{0};
  alignas(kCacheLineBytes) std::atomic<std::int64_t> bottom_{0};
  std::atomic<Ring *> ring_;
  // Owner-private copies beside bottom: the live ring's index mask, and the
  // bottom at which a push must take the slow path, from a top no newer
  // than the real one and the recorded peak (arm_peak_trap()); at first the
  // peak is 0, so the first push traps.
  std::int64_t mask_ = kInitialCapacity - 1;
  std::int64_t push_limit_ = 0;
  FencePolicy policy_;
  std::int64_t quiet_limit_;
  // Owner-private: the index top had at the fenced pops since it last
  // moved, and how many they were (answer_thieves()).
  std::int64_t quiet_index_ = 0;
  std::int64_t quiet_pops_ = 0;
  std::int64_t slow_pushes_ = 0;
  std::int64_t fenced_pops_ = 0;
  // Written by the owner only, read by statistics (stats.h).
  Counter switches_to_fenced_;
  Counter switches_to_unfenced_;
  // Written by the owner only, read by statistics from any thread.
  std::atomic<std::int64_t> peak_{0};
};

inline bool Thief::out_of_patience() {
  std::int64_t Now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now().time_since_epoch())
                         .count();
  if (waiting_since_ns_ == 0) {
    waiting_since_ns_ = Now;
    return false;
  }
  return Now - waiting_since_ns_ >= patience_ns_;
}

} // namespace weft

#endif // WEFT_RUNTIME_DEQUE_H
