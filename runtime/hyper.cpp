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
// it finds the Hyper (a per-thread cache, then the registry under a lock)
// and the strand's view of it (__weft_reducer_lookup). The cache is
// emptied whenever a reducer is unregistered anywhere, since its address
// may then key a new one.
//
// Views other than the leftmost are destroyed by R, as in OpenCilk: the
// runtime frees their storage after R and calls no destructor.
//
//===----------------------------------------------------------------------===//

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

/// Registered reducers by key. Never destroyed: the map outlives every
/// static reducer, and its entries stay reachable for leak checkers.
struct Registry {
  std::mutex Lock;
  std::unordered_map<void *, Hyper *> ByKey;
};
Registry &registry() {
  static Registry *R = new Registry();
  return *R;
}

/// Incremented by each unregistration: a thread's cache is valid only for
/// the generation it was filled in.
std::atomic<unsigned long> Generation{0};

constexpr unsigned kCacheSize = 8;
struct CacheEntry {
  void *Key;
  Hyper *H;
};
struct Cache {
  unsigned long Generation = 0;
  CacheEntry Entries[kCacheSize] = {};
};
thread_local Cache ThreadCache;

unsigned slotOf(void *Key) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(Key) >> 3) &
         (kCacheSize - 1);
}

/// The reducer keyed by \p Key, created with the given monoid if none is:
/// a static or global reducer seen outside the leftmost strand.
Hyper *findHyper(void *Key, std::size_t Size, std::size_t Align, IdentityFn I,
                 ReduceFn R) {
  Cache &C = ThreadCache;
  // Acquire: pairs with the release increment of an unregistration, after
  // which this thread must not use a Hyper it cached before.
  unsigned long Now = Generation.load(std::memory_order_acquire);
  if (C.Generation != Now) {
    C = Cache();
    C.Generation = Now;
  }
  CacheEntry &E = C.Entries[slotOf(Key)];
  if (E.Key == Key)
    return E.H;
  Registry &Reg = registry();
  Hyper *H;
  {
    std::lock_guard<std::mutex> Guard(Reg.Lock);
    Hyper *&Slot = Reg.ByKey[Key];
    if (!Slot)
      Slot = newHyper(Key, Size, Align, I, R);
    H = Slot;
  }
  E = {Key, H};
  return H;
}

} // namespace
} // namespace weft

using namespace weft;

// Defined by the race runtime only (views.cpp says why it is weak).
extern "C" void __weft_race_reducer_view(void *View, std::size_t Size, int Live)
    __attribute__((weak));

extern "C" {

void *__weft_hyper_lookup(void *Key, std::size_t Size, std::size_t Align,
                          IdentityFn I, ReduceFn R) {
  // No stack switch can happen in here (views.cpp's lookup reads it the
  // same way).
  Worker *W = detail::ThreadWorker;
  if (!W || W->views.Leftmost) {
    // A race-mode run is serial, always leftmost: every strand's view is
    // the variable itself, which the race runtime must not check.
    if (__weft_race_reducer_view)
      __weft_race_reducer_view(Key, Size, 1);
    return Key;
  }
  return __weft_reducer_lookup(&findHyper(Key, Size, Align, I, R)->Base);
}

void *__weft_hyper_register(void *Key, std::size_t Size, std::size_t Align,
                            IdentityFn I, ReduceFn R) {
  Hyper *H = newHyper(Key, Size, Align, I, R);
  Hyper *Old;
  {
    Registry &Reg = registry();
    std::lock_guard<std::mutex> Guard(Reg.Lock);
    Hyper *&Slot = Reg.ByKey[Key];
    Old = Slot; // a static one at a reused address, or a leaked local
    Slot = H;
  }
  if (Old)
    Generation.fetch_add(1, std::memory_order_release);
  __weft_reducer_register(&H->Base, Key);
  return Key;
}

/// The cleanup of a local reducer's companion variable, which holds its
/// key: folds the calling strand's view into the variable, then forgets it.
void __weft_hyper_unregister(void **KeySlot) {
  void *Key = *KeySlot;
  Hyper *H = nullptr;
  {
    Registry &Reg = registry();
    std::lock_guard<std::mutex> Guard(Reg.Lock);
    auto It = Reg.ByKey.find(Key);
    if (It != Reg.ByKey.end()) {
      H = It->second;
      Reg.ByKey.erase(It);
    }
  }
  if (!H)
    return;
  // Release: a thread that sees the new generation drops its cached H.
  Generation.fetch_add(1, std::memory_order_release);
  __weft_reducer_unregister(&H->Base);
  delete H;
}

} // extern "C"
