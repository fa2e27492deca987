/*===- deque_model.h - runtime/deque.h in C11, for a model checker --------===*
 *
 * The work-stealing deque of runtime/deque.h, transcribed to C11 atomics so
 * that GenMC can check its orderings exhaustively under RC11 (the C11 model)
 * and IMM (a hardware model that allows what Arm allows). The functions
 * have deque.h's names and do its accesses in its order, with its memory
 * orders; what the model leaves out (statistics, the quiet-pop counter's
 * bound, allocation) changes no access to shared memory.
 *
 * Every ordering deque.h argues for is a macro, ORD_* below, and every
 * fence a switch, so that scripts/model_check.sh can weaken one at a time
 * and show a client that fails (the checks can fail). The clients
 * (the .c files beside this one) push, pop and steal, and assert that every pushed
 * element is delivered exactly once, to the owner's pop or to one thief.
 *
 * Configuration, by -D:
 *   POLICY      FENCED, UNFENCED or ADAPTIVE (FencePolicy in fence.h)
 *   PATIENT     ADAPTIVE only: 1, a thief that finds the deque unfenced
 *               asks for fenced pops and gives up this steal; 0, it is out
 *               of patience and pays a membarrier (Thief::out_of_patience);
 *               2, patient at its first steal and out of patience after
 *   CAPACITY    the first ring's slots (a power of two; grow() doubles)
 *
 * membarrier(), soundly. MEMBARRIER_CMD_PRIVATE_EXPEDITED returns after
 * every other running thread of the process has executed a full barrier at
 * some point of its instruction stream during the call (one not running
 * passed through one when it was switched out), and the caller's own entry
 * and exit are full barriers. C11 has no such operation, so the model
 * makes each of those points explicit: every thread calls ipi_point()
 * between any two of its accesses to the deque; there it may take a
 * pending request, with a seq_cst fence and an acknowledgement. The caller
 * posts a request to each other thread (an acq_rel increment), then waits
 * (GenMC's assume) until each has acknowledged it, has exited, or is in a
 * membarrier of its own (whose entry and exit fences are its barrier). A
 * request a thread reads late only delays its barrier to a later point,
 * and a stale "exited" or "in a membarrier" only lets the caller go on
 * without one: the model allows every placement of the barriers that the
 * kernel allows, and more, so a client it passes is passed on hardware.
 *
 *===----------------------------------------------------------------------===*/
#ifndef WEFT_DEQUE_MODEL_H
#define WEFT_DEQUE_MODEL_H

#include <assert.h>
#include <genmc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define FENCED 1
#define UNFENCED 2
#define ADAPTIVE 3
#ifndef POLICY
#define POLICY ADAPTIVE
#endif
#ifndef PATIENT
#define PATIENT 1
#endif
#ifndef CAPACITY
#define CAPACITY 2
#endif

/* The orderings deque.h writes, each where it writes it; the relaxed ones
 * are macros too, so that a run can show what a stronger one would not
 * change. */
#ifndef ORD_PUBLISH_BOTTOM /* publish(): bottom's store */
#define ORD_PUBLISH_BOTTOM memory_order_release
#endif
#ifndef ORD_RESERVE_BOTTOM /* reserve(): bottom's store by a pop */
#define ORD_RESERVE_BOTTOM memory_order_release
#endif
#ifndef ORD_PUSH_SLOW_TOP /* push_slow(): top's load before reusing slots */
#define ORD_PUSH_SLOW_TOP memory_order_acquire
#endif
#ifndef ORD_GROW_RING /* grow(): the new ring's store */
#define ORD_GROW_RING memory_order_release
#endif
#ifndef ORD_STEAL_TOP /* steal(): top's load */
#define ORD_STEAL_TOP memory_order_relaxed
#endif
#ifndef ORD_STEAL_BOTTOM /* steal(): bottom's load after the fence */
#define ORD_STEAL_BOTTOM memory_order_acquire
#endif
#ifndef ORD_STEAL_RING /* steal(): the ring's load */
#define ORD_STEAL_RING memory_order_acquire
#endif
#ifndef ORD_STEAL_CAS /* steal(): the CAS that takes the element */
#define ORD_STEAL_CAS memory_order_release
#endif
#ifndef ORD_TAKE_LAST_CAS /* take_last(): the owner's CAS for the last one */
#define ORD_TAKE_LAST_CAS memory_order_acquire
#endif
#ifndef ORD_REQUEST_CAS /* fence_before_bottom(): a thief's request */
#define ORD_REQUEST_CAS memory_order_relaxed
#endif
#ifndef ORD_CONFIRM_CAS /* answer_thieves(): the owner's confirmation */
#define ORD_CONFIRM_CAS memory_order_relaxed
#endif
#ifndef ORD_DROP_CAS /* answer_thieves(): dropping the tag */
#define ORD_DROP_CAS memory_order_relaxed
#endif
/* The fences: 1 keeps each, 0 leaves it out. */
#ifndef FENCE_OWNER /* pop_fenced(): the owner's full fence */
#define FENCE_OWNER 1
#endif
#ifndef FENCE_THIEF /* fence_before_bottom(): a thief's full fence */
#define FENCE_THIEF 1
#endif
#ifndef FENCE_MEMBARRIER /* heavy_fence(): the membarrier */
#define FENCE_MEMBARRIER 1
#endif

#define MAX_THREADS 4
#define RELAXED memory_order_relaxed

/*===- membarrier ---------------------------------------------------------===*/

static atomic_int mb_requests[MAX_THREADS];
static atomic_int mb_answered[MAX_THREADS];
static atomic_int mb_inside[MAX_THREADS];
static atomic_int mb_exited[MAX_THREADS];
static int mb_taken[MAX_THREADS]; /* each thread's own */

/* Where the membarrier of another thread may interrupt thread \p Self. */
static void ipi_point(int Self) {
#if POLICY != FENCED
  int Posted = atomic_load_explicit(&mb_requests[Self], memory_order_acquire);
  if (Posted > mb_taken[Self]) {
    atomic_thread_fence(memory_order_seq_cst);
    mb_taken[Self] = Posted;
    atomic_store_explicit(&mb_answered[Self], Posted, memory_order_release);
  }
#else
  (void)Self;
#endif
}

/* A thread stops running: its last barrier answers every later request. */
static void thread_exit(int Self) {
  atomic_thread_fence(memory_order_seq_cst);
  atomic_store_explicit(&mb_exited[Self], 1, memory_order_release);
}

static int NumThreads = 1;

static void membarrier(int Self) {
  int Wanted[MAX_THREADS];
  atomic_thread_fence(memory_order_seq_cst);
  atomic_store_explicit(&mb_inside[Self], 1, memory_order_release);
  for (int T = 0; T < NumThreads; ++T)
    if (T != Self)
      Wanted[T] = atomic_fetch_add_explicit(&mb_requests[T], 1,
                                            memory_order_acq_rel) + 1;
  for (int T = 0; T < NumThreads; ++T) {
    if (T == Self)
      continue;
    int Answered = atomic_load_explicit(&mb_answered[T], memory_order_acquire);
    int Exited = atomic_load_explicit(&mb_exited[T], memory_order_acquire);
    int Inside = atomic_load_explicit(&mb_inside[T], memory_order_acquire);
    __VERIFIER_assume(Answered >= Wanted[T] || Exited || Inside);
  }
  atomic_store_explicit(&mb_inside[Self], 0, RELAXED);
  atomic_thread_fence(memory_order_seq_cst);
}

/*===- the deque ----------------------------------------------------------===*/

typedef int64_t T; /* elements 1, 2, ...; 0 is T(), no element */

#define OWNER_FENCES ((int64_t)1 << 62)
#define THIEVES_FENCE ((int64_t)1 << 61)
#define REQUESTED_TAG OWNER_FENCES
#define FENCED_TAG (OWNER_FENCES | THIEVES_FENCE)
#define INDEX_MASK (THIEVES_FENCE - 1)

struct ring {
  int64_t capacity;
  _Atomic(T) slots[4 * CAPACITY];
};

static struct ring Rings[3];      /* the first ring and two growths */
static int RingsUsed = 1;         /* the owner's */
static atomic_int_least64_t top_; /* index and tags */
static atomic_int_least64_t bottom_;
static _Atomic(struct ring *) ring_;
/* The owner's own. */
static int64_t mask_ = CAPACITY - 1;
static int64_t push_limit_ = 0;
static int64_t peak_ = 0;
static int64_t quiet_index_ = 0;
static int64_t quiet_pops_ = 0;
#define QUIET_LIMIT 1 /* drop the tag after one quiet fenced pop */

static int64_t top_index(int64_t Word) { return Word & INDEX_MASK; }

static void ring_put(struct ring *R, int64_t I, T X) {
  atomic_store_explicit(&R->slots[I & (R->capacity - 1)], X, RELAXED);
}
static T ring_get(struct ring *R, int64_t I) {
  return atomic_load_explicit(&R->slots[I & (R->capacity - 1)], RELAXED);
}

static void deque_init(int Threads) {
  NumThreads = Threads;
  Rings[0].capacity = CAPACITY;
  atomic_init(&ring_, &Rings[0]);
  atomic_init(&bottom_, 0);
  atomic_init(&top_, POLICY == FENCED ? FENCED_TAG : 0);
}

/*--- the owner ---*/

static void publish(struct ring *R, int64_t B, T X) {
  atomic_store_explicit(&R->slots[B & mask_], X, RELAXED);
  ipi_point(0);
  atomic_store_explicit(&bottom_, B + 1, ORD_PUBLISH_BOTTOM);
}

static struct ring *grow(struct ring *Old, int64_t Top, int64_t Bottom) {
  struct ring *New = &Rings[RingsUsed++];
  New->capacity = Old->capacity * 2;
  for (int64_t I = Top; I < Bottom; ++I) {
    ring_put(New, I, ring_get(Old, I));
    ipi_point(0);
  }
  atomic_store_explicit(&ring_, New, ORD_GROW_RING);
  mask_ = New->capacity - 1;
  return New;
}

static void arm_peak_trap(int64_t Top) { push_limit_ = Top + peak_; }

static int64_t push_slow(T X) {
  int64_t B = atomic_load_explicit(&bottom_, RELAXED);
  ipi_point(0);
  int64_t Top = top_index(atomic_load_explicit(&top_, ORD_PUSH_SLOW_TOP));
  ipi_point(0);
  struct ring *R = atomic_load_explicit(&ring_, RELAXED);
  if (B - Top > mask_)
    R = grow(R, Top, B);
  publish(R, B, X);
  if (B + 1 - Top > peak_)
    peak_ = B + 1 - Top;
  arm_peak_trap(Top);
  return B + 1;
}

/* push(): returns the push's mark. */
static int64_t push(T X) {
  int64_t B = atomic_load_explicit(&bottom_, RELAXED);
  ipi_point(0);
  if (B >= push_limit_)
    return push_slow(X);
  publish(atomic_load_explicit(&ring_, RELAXED), B, X);
  return B + 1;
}

static bool reserve(int64_t B) {
  atomic_store_explicit(&bottom_, B, ORD_RESERVE_BOTTOM);
  /* light_fence(): a compiler barrier; the IPI may land on either side. */
  ipi_point(0);
  return atomic_load_explicit(&top_, RELAXED) < B;
}

static bool take_last(int64_t Word) {
  const int64_t Index = top_index(Word);
  while (!atomic_compare_exchange_strong_explicit(
      &top_, &Word, Word + 1, ORD_TAKE_LAST_CAS, RELAXED)) {
    ipi_point(0);
    if (top_index(Word) != Index)
      return false;
  }
  return true;
}

static int64_t answer_thieves(int64_t Word) {
  if ((Word & FENCED_TAG) == REQUESTED_TAG) {
    while (!atomic_compare_exchange_weak_explicit(
        &top_, &Word, Word | THIEVES_FENCE, ORD_CONFIRM_CAS, RELAXED))
      ipi_point(0);
    quiet_pops_ = 0;
    quiet_index_ = top_index(Word);
    return Word | THIEVES_FENCE;
  }
  if (POLICY != ADAPTIVE)
    return Word;
  if (top_index(Word) != quiet_index_) {
    quiet_index_ = top_index(Word);
    quiet_pops_ = 0;
    return Word;
  }
  if (++quiet_pops_ < QUIET_LIMIT)
    return Word;
  quiet_pops_ = 0;
  if (!atomic_compare_exchange_strong_explicit(&top_, &Word, top_index(Word),
                                               ORD_DROP_CAS, RELAXED)) {
    quiet_index_ = top_index(Word);
    return Word;
  }
  return top_index(Word);
}

static T pop_fenced(int64_t B) {
  int64_t Word = atomic_load_explicit(&top_, RELAXED);
  ipi_point(0);
  if (Word & OWNER_FENCES) {
#if FENCE_OWNER
    atomic_thread_fence(memory_order_seq_cst);
#endif
    Word = answer_thieves(atomic_load_explicit(&top_, RELAXED));
    ipi_point(0);
  }
  int64_t T0 = top_index(Word);
  if (T0 < B)
    return ring_get(atomic_load_explicit(&ring_, RELAXED), B);
  if (T0 > B) {
    atomic_store_explicit(&bottom_, B + 1, RELAXED);
    ipi_point(0);
    return 0;
  }
  T X = ring_get(atomic_load_explicit(&ring_, RELAXED), B);
  ipi_point(0);
  bool Won = take_last(Word);
  ipi_point(0);
  atomic_store_explicit(&bottom_, B + 1, RELAXED);
  ipi_point(0);
  if (!Won)
    return 0;
  arm_peak_trap(T0 + 1);
  return X;
}

/* pop_owned(): the fast clone's pop, which needs no element, only whether
 * the newest one came back. */
static bool pop_owned_unmarked(void) {
  int64_t B = atomic_load_explicit(&bottom_, RELAXED) - 1;
  ipi_point(0);
  if (reserve(B))
    return true;
  return pop_fenced(B) != 0;
}

/* pop_owned(Mark): pop_owned_inline() and its rare endings. */
static bool pop_owned(int64_t Mark) {
  if (atomic_load_explicit(&bottom_, RELAXED) != Mark) {
    ipi_point(0);
    return pop_owned_unmarked();
  }
  ipi_point(0);
  int64_t B = Mark - 1;
  if (reserve(B))
    return true;
  return pop_fenced(B) != 0;
}

/* pop(): the element itself (the scheduler's pop of a worker's own deque). */
static T pop(void) {
  int64_t B = atomic_load_explicit(&bottom_, RELAXED) - 1;
  ipi_point(0);
  if (reserve(B)) {
    T X = ring_get(atomic_load_explicit(&ring_, RELAXED), B);
    ipi_point(0);
    return X;
  }
  return pop_fenced(B);
}

/*--- a thief ---*/

static int Steals[MAX_THREADS]; /* each thief's own count of tries */

enum steal_result { EMPTY, LOST, REQUESTED, SUCCESS };

static bool fence_before_bottom(int Self, int64_t Word) {
  int64_t Tag = Word & FENCED_TAG;
  if (Tag == FENCED_TAG) {
#if FENCE_THIEF
    atomic_thread_fence(memory_order_seq_cst);
#endif
    return true;
  }
#if POLICY == ADAPTIVE
  if (PATIENT == 1 || (PATIENT == 2 && Steals[Self] == 1)) {
    if (Tag == 0)
      atomic_compare_exchange_strong_explicit(
          &top_, &Word, Word | REQUESTED_TAG, ORD_REQUEST_CAS, RELAXED);
    ipi_point(Self);
    return false;
  }
#endif
#if FENCE_MEMBARRIER
  membarrier(Self);
#endif
  ipi_point(Self);
  return true;
}

static enum steal_result steal(int Self, T *Out) {
  ++Steals[Self];
  int64_t Word = atomic_load_explicit(&top_, ORD_STEAL_TOP);
  ipi_point(Self);
  int64_t T0 = top_index(Word);
  int64_t Seen = atomic_load_explicit(&bottom_, RELAXED);
  ipi_point(Self);
  if (Seen <= T0)
    return EMPTY;
  if (!fence_before_bottom(Self, Word))
    return REQUESTED;
  int64_t B = atomic_load_explicit(&bottom_, ORD_STEAL_BOTTOM);
  ipi_point(Self);
  if (B <= T0)
    return EMPTY;
  struct ring *R = atomic_load_explicit(&ring_, ORD_STEAL_RING);
  ipi_point(Self);
  T X = ring_get(R, T0);
  ipi_point(Self);
  if (!atomic_compare_exchange_strong_explicit(&top_, &Word, Word + 1,
                                               ORD_STEAL_CAS, RELAXED))
    return LOST;
  ipi_point(Self);
  *Out = X;
  return SUCCESS;
}

/*--- delivery ---*/

#define MAX_ELEMENTS 8
/* How often each element was delivered, written by whoever took it and
 * read after every thread is joined. */
static atomic_int Delivered[MAX_ELEMENTS + 1];

static void deliver(T X) {
  assert(X >= 1 && X <= MAX_ELEMENTS && "a thief took no element");
  atomic_fetch_add_explicit(&Delivered[X], 1, RELAXED);
}

/* Every element 1..N exactly once. */
static void check_delivered(int N) {
  for (int X = 1; X <= N; ++X)
    assert(atomic_load_explicit(&Delivered[X], RELAXED) == 1 &&
           "an element lost or taken twice");
}

/* The owner's \p Pops pops with pop(): each that returns an element
 * delivers it. */
static void pop_some(int Pops) {
  for (int I = 0; I < Pops; ++I) {
    T X = pop();
    ipi_point(0);
    if (X != 0)
      deliver(X);
  }
}

/* A thief's tries: each steal that succeeds delivers its element. */
static void steal_some(int Self, int Tries) {
  for (int I = 0; I < Tries; ++I) {
    T X = 0;
    if (steal(Self, &X) == SUCCESS)
      deliver(X);
  }
}

/* A thief thread (\p Arg is its index): two steals, then it stops. */
static void *two_steals(void *Arg) {
  int Self = (int)(intptr_t)Arg;
  steal_some(Self, 2);
  thread_exit(Self);
  return NULL;
}

#endif /* WEFT_DEQUE_MODEL_H */
