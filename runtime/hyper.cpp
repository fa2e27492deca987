//===- hyper.cpp - OpenCilk 2's reducer variables: views keyed by address -===//
//
// `T cilk_reducer(I, R) x` (<cilk/cilk.h>) makes x a reducer whose leftmost
// view is x itself. The plugin (ReducerUses.cpp) rewrites every access of x,
// and every `*p` through a `T cilk_reducer(I, R) *p`, into
//
//   (*(T *)__weft_hyper_lookup(&x, sizeof(T), alignof(T), I, R))
//
// and brackets a local x with __weft_hyper_register after its initialiser
// and __weft_hyper_unregister on every way out of its scope.
//
// The key is the variable's address, so that a pointer to x, passed to any
// function, finds the same reducer. A registry maps keys to Hyper records,
// each a __weft_reducer (views.h merges them like any other reducer) with
// I and R adapted to the runtime's callbacks. A local is registered at its
// declaration, in the strand that declares it; a static or global one the
// first time a strand other than the leftmost looks it up, since its own
// storage is the leftmost strand's view in every program.
//
// In the leftmost strand a lookup is the key itself, as before. Elsewhere
// it finds the Hyper (a per-thread cache, then the registry: 64 shards by
// address, each under its own lock) and the strand's view of it
// (__weft_reducer_lookup). A cache entry is dropped once a reducer of its
// shard is unregistered, since its address may then key a new one.
//
// Views other than the leftmost are destroyed by R, as in OpenCilk: the
// runtime frees their storage after R and calls no destructor.
//
//===----------------------------------------------------------------------===//

#include "cache_line.h"
#include "views.h"
#include "worker.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace weft {
namespace {

using IdentityFn = void (*)(void *);
using ReduceFn = void (*)(void *, void *);

/// A reducer variable as the runtime sees it. Base comes first: the
/// callbacks get &Base and find the rest from it.
struct Hyper {
  __weft_reducer Base;
  IdentityFn Identity;
  ReduceFn Reduce;
};

Hyper *hyperOf(void *Self) {
  return reinterpret_cast<Hyper *>(static_cast<__weft_reducer *>(Self));
}
void identityThunk(void *Self, void *View) { hyperOf(Self)->Identity(View); }
void reduceThunk(void *Self, void *Left, void *Right) {
  hyperOf(Self)->Reduce(Left, Right);
}

Hyper *newHyper(void *Key, std::size_t Size, std::size_t Align, IdentityFn I,
                ReduceFn R) {
  auto *H = new Hyper();
  H->Base.reduce = &reduceThunk;
  H->Base.identity = &identityThunk;
  H->Base.destroy = nullptr; // R destroys the right view
  H->Base.view_size = Size;
  H->Base.view_align = Align;
  H->Base.leftmost = Key;
  H->Identity = I;
  H->Reduce = R;
  return H;
}

/// Registered reducers by key, in shards by the key's address, each with
/// its own lock and its own generation, so that workers registering and
/// unregistering local reducers at once meet only when their keys share a
/// shard. Never destroyed: the shards outlive every static reducer, and
/// their entries stay reachable for leak checkers.
struct alignas(kCacheLineBytes) Shard {
  std::mutex Lock;
  std::unordered_map<void *, Hyper *> ByKey;
  /// Incremented by each unregistration of one of the shard's keys: a
  /// thread's cache entry is valid only for the generation it was filled
  /// in, since the key's address may then key a new reducer.
  std::atomic<unsigned long> Generation{0};
};
constexpr unsigned kShards = 64;

Shard &shardOf(void *Key) {
  static Shard *Shards = new Shard[kShards];
  auto Bits = reinterpret_cast<std::uintptr_t>(Key);
  return Shards[((Bits >> 4) ^ (Bits >> 12)) & (kShards - 1)];
}

constexpr unsigned kCacheSize = 8;
struct CacheEntry {
  void *Key;
  Hyper *H;
  unsigned long Generation; // its shard's, when filled
};
thread_local CacheEntry ThreadCache[kCacheSize];

unsigned slotOf(void *Key) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(Key) >> 3) &
         (kCacheSize - 1);
}

/// The reducer keyed by \p Key, created with the given monoid if none is:
/// a static or global reducer seen outside the leftmost strand.
Hyper *findHyper(void *Key, std::size_t Size, std::size_t Align, IdentityFn I,
                 ReduceFn R) {
  Shard &S = shardOf(Key);
  // Acquire: pairs with the release increment of an unregistration, after
  // which this thread must not use a Hyper it cached before.
  unsigned long Now = S.Generation.load(std::memory_order_acquire);
  CacheEntry &E = ThreadCache[slotOf(Key)];
  if (E.Key == Key && E.Generation == Now)
    return E.H;
  Hyper *H;
  {
    std::lock_guard<std::mutex> Guard(S.Lock);
    Hyper *&Slot = S.ByKey[Key];
    if (!Slot)
      Slot = newHyper(Key, Size, Align, I, R);
    H = Slot;
  }
  E = {Key, H, Now};
  return H;
}

} // namespace
} // namespace weft

using namespace weft;

// Defined by the race runtime only (views.cpp says why it is weak).
extern "C" void *__weft_race_view(__weft_reducer *R) __attribute__((weak));

extern "C" {

void *__weft_hyper_lookup(void *Key, std::size_t Size, std::size_t Align,
                          IdentityFn I, ReduceFn R) {
  // No stack switch can happen in here (views.cpp's lookup reads it the
  // same way).
  Worker *W = thread_worker_or_null();
  if (!W || W->views.Leftmost) {
    // A serial run, always leftmost: every strand's view is the variable
    // itself, but for the race runtime's, which gives the strands their
    // own (runtime/analysis/race/strand_views.h).
    if (__weft_race_view)
      return __weft_race_view(&findHyper(Key, Size, Align, I, R)->Base);
    return Key;
  }
  return __weft_reducer_lookup(&findHyper(Key, Size, Align, I, R)->Base);
}

void *__weft_hyper_register(void *Key, std::size_t Size, std::size_t Align,
                            IdentityFn I, ReduceFn R) {
  Hyper *H = newHyper(Key, Size, Align, I, R);
  Shard &S = shardOf(Key);
  Hyper *Old;
  {
    std::lock_guard<std::mutex> Guard(S.Lock);
    Hyper *&Slot = S.ByKey[Key];
    Old = Slot; // a static one at a reused address, or a leaked local
    Slot = H;
  }
  if (Old)
    S.Generation.fetch_add(1, std::memory_order_release);
  __weft_reducer_register(&H->Base, Key);
  return Key;
}

/// The cleanup of a local reducer's companion variable, which holds its
/// key: folds the calling strand's view into the variable, then forgets it.
void __weft_hyper_unregister(void **KeySlot) {
  void *Key = *KeySlot;
  Shard &S = shardOf(Key);
  Hyper *H = nullptr;
  {
    std::lock_guard<std::mutex> Guard(S.Lock);
    auto It = S.ByKey.find(Key);
    if (It != S.ByKey.end()) {
      H = It->second;
      S.ByKey.erase(It);
    }
  }
  if (!H)
    return;
  // Release: a thread that sees the new generation drops its cached H.
  S.Generation.fetch_add(1, std::memory_order_release);
  __weft_reducer_unregister(&H->Base);
  delete H;
}

} // extern "C"
