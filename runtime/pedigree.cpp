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
#include <cstddef>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft {

__thread PedigreeFrame *detail::CurrentPedigree = nullptr;

namespace {

using Chunk = void (*)(void *, std::uint64_t, std::uint64_t);
using Splitter = void (*)(std::uint64_t, std::int64_t, Chunk, void *);

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

/// DotMix's term for rank \p Rank at level \p Depth: (Rank + 1) * m[Depth].
std::uint64_t termOf(std::uint64_t Rank, std::uint64_t Depth) {
  return __weft_dprng_mul_mod_p(Rank % WEFT_DPRNG_PRIME + 1, tableAt(Depth));
}

[[gnu::noinline]] PedigreeFrame *current() {
  return detail::CurrentPedigree;
}
[[gnu::noinline]] void setCurrent(PedigreeFrame *F) {
  detail::CurrentPedigree = F;
}

static_assert(offsetof(PedigreeFrame, node) == 0,
              "a node's address is its frame's");
PedigreeFrame *frameOf(__cilkrts_pedigree *Node) {
  return reinterpret_cast<PedigreeFrame *>(Node);
}

/// A level with nothing above it: a thread's root, or a callback's own.
void makeTopLevel(PedigreeFrame *F, std::uint64_t Term) {
  F->node = {Term, nullptr};
  F->rank = 0;
  F->depth.store(1, std::memory_order_relaxed);
  F->prefix.store(__weft_dprng_add_mod_p(Offset, termOf(Term, 0)),
                  std::memory_order_release);
}

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
  makeTopLevel(&Root, threadOrdinal());
  setCurrent(&Root);
  return &Root;
}

PedigreeFrame *currentOrRoot() {
  PedigreeFrame *F = current();
  return F ? F : makeRoot();
}

/// \p F's prefix (and depth, which it makes known), computed down from
/// the nearest level above that knows its own, and kept at each level on
/// the way.
std::uint64_t prefixOf(PedigreeFrame *F) {
  constexpr unsigned kPathChunk = 64;
  PedigreeFrame *Path[kPathChunk];
  unsigned Length = 0;
  std::uint64_t Known;
  PedigreeFrame *G = F;
  // A top level's prefix is known from the start, so the walk ends.
  while ((Known = G->prefix.load(std::memory_order_acquire)) ==
         kUnknownPrefix) {
    if (Length == kPathChunk) {
      Known = prefixOf(G); // a deep chain, a chunk at a time
      break;
    }
    Path[Length++] = G;
    G = frameOf(G->node.parent);
  }
  std::uint64_t Depth = G->depth.load(std::memory_order_relaxed);
  while (Length > 0) {
    PedigreeFrame *Below = Path[--Length];
    // The term that Below's node records is at the level above it.
    Known = __weft_dprng_add_mod_p(Known, termOf(Below->node.rank, Depth));
    ++Depth;
    Below->depth.store(Depth, std::memory_order_relaxed);
    Below->prefix.store(Known, std::memory_order_release);
  }
  return Known;
}

/// What a parallel loop's pieces need to give each iteration its frame.
struct LoopPedigree {
  PedigreeFrame level; // the loop's: its node holds the parent's rank
  Chunk run;
  void *context;
};

/// A frame one level below \p L's, the piece's current one.
void enterPiece(LoopPedigree *L, PedigreeFrame *Piece, std::uint64_t Index) {
  Piece->node.parent = &L->level.node;
  beginIterationPedigree(Piece, Index);
  setCurrent(Piece);
}

/// A piece of the loop, one call of the chunk per iteration, each in the
/// piece's frame made iteration i's, [..., r, i, 0]. An iteration's strands
/// have all ended when its call returns, so the next may have the frame.
void runIterations(void *Loop, std::uint64_t Lo, std::uint64_t Hi) {
  auto *L = static_cast<LoopPedigree *>(Loop);
  PedigreeFrame Iteration;
  for (std::uint64_t I = Lo; I != Hi; ++I) {
    enterPiece(L, &Iteration, I);
    L->run(L->context, I, I + 1);
  }
}

/// A piece of a loop whose chunk marks its own iterations: one frame for
/// the piece, which each iteration's mark makes [..., r, i, 0].
void runPiece(void *Loop, std::uint64_t Lo, std::uint64_t Hi) {
  auto *L = static_cast<LoopPedigree *>(Loop);
  PedigreeFrame Piece;
  enterPiece(L, &Piece, Lo);
  L->run(L->context, Lo, Hi);
}

/// Runs a loop at a level below the caller's, through \p Piece.
void runLoop(std::uint64_t N, std::int64_t Grain, Chunk Run, void *Context,
             Splitter Split, Chunk Piece) {
  PedigreeFrame *Parent = currentOrRoot();
  LoopPedigree Loop;
  beginChildPedigree(Parent, &Loop.level); // counts the loop in Parent
  Loop.run = Run;
  Loop.context = Context;
  Split(N, Grain, Piece, &Loop);
  // The splitter may return on another thread, whose frame was one of
  // the iterations'.
  setCurrent(Parent);
}

} // namespace

PedigreeCallbackScope::PedigreeCallbackScope() : Saved(current()) {
  if (!Saved)
    return;
  makeTopLevel(&Own, 0);
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
  auto *Child = static_cast<PedigreeFrame *>(ChildFrame);
  beginChildPedigree(static_cast<PedigreeFrame *>(ParentFrame), Child);
  setCurrent(Child);
}

void __weft_pedigree_resume(void *Frame) {
  setCurrent(static_cast<PedigreeFrame *>(Frame));
}

void __weft_pedigree_sync(void *Frame) {
  ++static_cast<PedigreeFrame *>(Frame)->rank;
}

void __weft_pedigree_syncs(std::uint64_t Count) {
  if (Count != 0)
    current()->rank += Count;
}

void __weft_pedigree_parallel_for(std::uint64_t N, std::int64_t Grain,
                                  Chunk Run, void *Context,
                                  Splitter Split) {
  runLoop(N, Grain, Run, Context, Split, &runIterations);
}

void __weft_pedigree_parallel_for_chunks(std::uint64_t N, std::int64_t Grain,
                                         Chunk Run, void *Context,
                                         Splitter Split) {
  runLoop(N, Grain, Run, Context, Split, &runPiece);
}

void __weft_pedigree_iteration(uint64_t Index) {
  beginIterationPedigree(current(), Index);
}

__cilkrts_pedigree __cilkrts_get_pedigree(void) {
  PedigreeFrame *F = currentOrRoot();
  return {F->rank, &F->node};
}

void __cilkrts_bump_worker_rank(void) { ++currentOrRoot()->rank; }

uint64_t __cilkrts_get_dprand(void) {
  PedigreeFrame *F = currentOrRoot();
  ++F->rank;
  std::uint64_t Prefix = prefixOf(F);
  return __weft_dprng_mix_mod_p(__weft_dprng_add_mod_p(
      Prefix, termOf(F->rank, F->depth.load(std::memory_order_relaxed))));
}

void __cilkrts_init_dprng(void) {
  ensureTable();
  fillTable();
  // The running strand's levels computed their prefixes with the old
  // table: forget them, down from a top level made again.
  PedigreeFrame *F = current();
  for (; F && F->node.parent; F = frameOf(F->node.parent))
    F->prefix.store(kUnknownPrefix, std::memory_order_relaxed);
  if (F)
    F->prefix.store(__weft_dprng_add_mod_p(Offset, termOf(F->node.rank, 0)),
                    std::memory_order_release);
}

void __cilkrts_dprand_set_seed(uint64_t NewSeed) {
  Seed = NewSeed;
  __cilkrts_init_dprng();
}

} // extern "C"
