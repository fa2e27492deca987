//===- pedigree.cpp - Pedigrees and DotMix random numbers -----------------===//
//
// The rules (docs/pedigrees.md), as Cilk Plus defined them and OpenCilk
// keeps them, for a strand whose pedigree is [..., r]:
//
//   spawn of a child     the child starts at [..., r, 0]; the parent goes on
//                        at [..., r + 1]
//   sync                 [..., r + 1] (explicit, a scope's end, and the
//                        implicit one before a spawning function returns)
//   cilk_for iteration i [..., r, i, 0], whatever the grain and however
//                        the loop was split; after the loop, [..., r + 1]
//   bump, or a draw      [..., r + 1]
//
// Code built with pedigrees calls the hooks below at each of these points
// (plugin/lower/Pedigrees.cpp); pedigree.h says who owns which frame.
//
// Thread-local state is read and written only through the two accessors
// below, which are never inlined: a spawning function may return on
// another thread, and a thread-local address computed before such a call
// would name the thread it started on (see plugin/lower/ThreadLocals.cpp).
//
//===----------------------------------------------------------------------===//

#include "pedigree.h"

#include <cilk/cilk_api.h>

#include <atomic>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft {
namespace {

using Chunk = void (*)(void *, std::uint64_t, std::uint64_t);
using Splitter = void (*)(std::uint64_t, std::int64_t, Chunk, void *);

thread_local PedigreeFrame *Current = nullptr;
thread_local PedigreeFrame Root;

/// The DotMix table and offset, from the seed. Written by
/// __cilkrts_init_dprng, which the program calls from serial code.
std::uint64_t Seed = WEFT_DPRNG_DEFAULT_SEED;
std::uint64_t Table[WEFT_DPRNG_TABLE_SIZE];
std::uint64_t Offset;
std::once_flag TableMade;

void fillTable() {
  for (std::uint64_t J = 0; J < WEFT_DPRNG_TABLE_SIZE; ++J)
    Table[J] = __weft_dprng_table_entry(Seed, J);
  Offset = __weft_dprng_offset(Seed);
}

void ensureTable() { std::call_once(TableMade, fillTable); }

std::uint64_t tableAt(std::uint64_t Depth) {
  return Table[Depth & (WEFT_DPRNG_TABLE_SIZE - 1)];
}

[[gnu::noinline]] PedigreeFrame *current() { return Current; }
[[gnu::noinline]] void setCurrent(PedigreeFrame *F) { Current = F; }

/// The number of a thread's root term: 0 for the process's main thread,
/// then 1, 2, ... for the others, in the order they first need one.
std::uint64_t threadOrdinal() {
  static std::atomic<std::uint64_t> Others{0};
  if (syscall(SYS_gettid) == getpid())
    return 0;
  return Others.fetch_add(1, std::memory_order_relaxed) + 1;
}

/// The calling thread's root frame, made on first use: [ordinal, 0].
[[gnu::noinline]] PedigreeFrame *makeRoot() {
  ensureTable();
  PedigreeFrame *R = &Root;
  std::uint64_t Ordinal = threadOrdinal();
  R->node = {Ordinal, nullptr};
  R->rank = 0;
  R->depth = 1;
  R->dot = __weft_dprng_add_mod_p(
      __weft_dprng_add_mod_p(
          Offset, __weft_dprng_mul_mod_p(Ordinal % WEFT_DPRNG_PRIME + 1,
                                         tableAt(0))),
      tableAt(1));
  setCurrent(R);
  return R;
}

PedigreeFrame *currentOrRoot() {
  PedigreeFrame *F = current();
  return F ? F : makeRoot();
}

/// The next strand at \p F's level: [..., r + 1].
void bump(PedigreeFrame *F) {
  ++F->rank;
  F->dot = __weft_dprng_add_mod_p(F->dot, tableAt(F->depth));
}

/// DotMix's sum for \p F's strand, from its pedigree as it stands: what the
/// runtime keeps up to date, computed afresh after a new seed.
std::uint64_t dotOf(const PedigreeFrame *F) {
  std::uint64_t Sum = Offset;
  std::uint64_t Depth = F->depth;
  Sum = __weft_dprng_add_mod_p(
      Sum, __weft_dprng_mul_mod_p(F->rank % WEFT_DPRNG_PRIME + 1,
                                  tableAt(Depth)));
  for (const __cilkrts_pedigree *N = &F->node; N && Depth > 0;
       N = N->parent) {
    --Depth;
    Sum = __weft_dprng_add_mod_p(
        Sum, __weft_dprng_mul_mod_p(N->rank % WEFT_DPRNG_PRIME + 1,
                                    tableAt(Depth)));
  }
  return Sum;
}

/// What a parallel loop's pieces need to give each iteration its frame.
struct LoopPedigree {
  __cilkrts_pedigree node; // the loop's term: the parent's rank at the loop
  std::uint64_t dot;       // the parent's sum at the loop
  std::uint64_t depth;     // the parent's level
  Chunk run;
  void *context;
};

/// A piece of the loop: each iteration in its own frame, [..., r, i, 0].
void runIterations(void *Loop, std::uint64_t Lo, std::uint64_t Hi) {
  auto *L = static_cast<LoopPedigree *>(Loop);
  std::uint64_t IterationTerm = tableAt(L->depth + 1);
  std::uint64_t First = tableAt(L->depth + 2);
  for (std::uint64_t I = Lo; I != Hi; ++I) {
    PedigreeFrame Iteration;
    Iteration.node = {I, &L->node};
    Iteration.rank = 0;
    Iteration.depth = L->depth + 2;
    Iteration.dot = __weft_dprng_add_mod_p(
        __weft_dprng_add_mod_p(
            L->dot, __weft_dprng_mul_mod_p(I % WEFT_DPRNG_PRIME + 1,
                                           IterationTerm)),
        First);
    setCurrent(&Iteration);
    L->run(L->context, I, I + 1);
  }
}

} // namespace

PedigreeCallbackScope::PedigreeCallbackScope() : Saved(current()) {
  if (!Saved)
    return;
  Own.node = {0, nullptr};
  Own.rank = 0;
  Own.depth = 1;
  Own.dot = __weft_dprng_add_mod_p(
      __weft_dprng_add_mod_p(Offset, tableAt(0)), tableAt(1));
  setCurrent(&Own);
}

PedigreeCallbackScope::~PedigreeCallbackScope() {
  if (Saved)
    setCurrent(Saved);
}

} // namespace weft

using namespace weft;

extern "C" {

void *__weft_pedigree_enter(void) { return currentOrRoot(); }

void __weft_pedigree_spawn(void *ParentFrame, void *ChildFrame) {
  auto *Parent = static_cast<PedigreeFrame *>(ParentFrame);
  auto *Child = static_cast<PedigreeFrame *>(ChildFrame);
  Child->node = {Parent->rank, &Parent->node};
  Child->rank = 0;
  Child->depth = Parent->depth + 1;
  Child->dot = __weft_dprng_add_mod_p(Parent->dot, tableAt(Child->depth));
  bump(Parent);
  setCurrent(Child);
}

void __weft_pedigree_resume(void *Frame) {
  setCurrent(static_cast<PedigreeFrame *>(Frame));
}

void __weft_pedigree_sync(void *Frame) {
  bump(static_cast<PedigreeFrame *>(Frame));
}

void __weft_pedigree_parallel_for(std::uint64_t N, std::int64_t Grain,
                                  Chunk Run, void *Context,
                                  Splitter Split) {
  PedigreeFrame *Parent = currentOrRoot();
  LoopPedigree Loop{{Parent->rank, &Parent->node},
                    Parent->dot,
                    Parent->depth,
                    Run,
                    Context};
  Split(N, Grain, &runIterations, &Loop);
  // The splitter may return on another thread, whose frame was one of
  // the iterations'.
  setCurrent(Parent);
  bump(Parent);
}

__cilkrts_pedigree __cilkrts_get_pedigree(void) {
  PedigreeFrame *F = currentOrRoot();
  return {F->rank, &F->node};
}

void __cilkrts_bump_worker_rank(void) { bump(currentOrRoot()); }

uint64_t __cilkrts_get_dprand(void) {
  PedigreeFrame *F = currentOrRoot();
  bump(F);
  return __weft_dprng_mix_mod_p(F->dot);
}

void __cilkrts_init_dprng(void) {
  ensureTable();
  fillTable();
  // The running strand's sum was made with the old table.
  if (PedigreeFrame *F = current())
    F->dot = dotOf(F);
}

void __cilkrts_dprand_set_seed(uint64_t NewSeed) {
  Seed = NewSeed;
  __cilkrts_init_dprng();
}

} // extern "C"
