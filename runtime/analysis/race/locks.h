//===- locks.h - The locks a strand holds, as interned sets ---------------===//
//
// Two accesses that hold a common lock do not race, as in OpenCilk's
// detector: a lock orders them, whichever comes first. The detector keeps
// the set of locks the followed thread holds (a lock is its address: a
// pthread mutex, spin lock or rwlock, or whatever <cilk/cilksan.h>'s
// __cilksan_acquire_lock names), and each access's site holds the set it
// was made under (sites.h), so a race whose two sites' sets meet is not
// reported (Detector::report()).
//
// What this does not do (docs/race.md): the access records keep the
// series-parallel rules of a program without locks, so when a later
// access under a lock takes over the record of an earlier one that held
// none, a race between that earlier access and a third one, parallel to
// both and under the same lock, goes unreported.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_LOCKS_H
#define WEFT_RUNTIME_ANALYSIS_RACE_LOCKS_H

#include "analysis/race/sites.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace weft::race {

class Locks {
public:
  Locks() { Sets.emplace_back(); } // 0: the empty set

  /// The set now held.
  LocksetId held() const { return Held; }

  void acquire(std::uintptr_t Lock) {
    Holding.push_back(Lock);
    Held = intern();
  }
  /// Releases one hold of \p Lock; one not held is ignored.
  void release(std::uintptr_t Lock) {
    auto It = std::find(Holding.rbegin(), Holding.rend(), Lock);
    if (It == Holding.rend())
      return;
    Holding.erase(std::next(It).base());
    Held = intern();
  }

  /// Whether the sets \p A and \p B have a lock in common.
  bool meet(LocksetId A, LocksetId B) const {
    if (A == 0 || B == 0)
      return false;
    const std::vector<std::uintptr_t> &X = Sets[A], &Y = Sets[B];
    for (std::size_t I = 0, J = 0; I < X.size() && J < Y.size();) {
      if (X[I] == Y[J])
        return true;
      X[I] < Y[J] ? ++I : ++J;
    }
    return false;
  }

  void reset() { *this = Locks(); }

private:
  LocksetId intern() {
    std::vector<std::uintptr_t> Set(Holding);
    std::sort(Set.begin(), Set.end());
    Set.erase(std::unique(Set.begin(), Set.end()), Set.end());
    if (Set.empty())
      return 0;
    auto [It, New] = Ids.try_emplace(Set, LocksetId(Sets.size()));
    if (New)
      Sets.push_back(Set);
    return It->second;
  }

  std::vector<std::uintptr_t> Holding; // with repeats: recursive holds
  LocksetId Held = 0;
  std::vector<std::vector<std::uintptr_t>> Sets;
  std::map<std::vector<std::uintptr_t>, LocksetId> Ids;
};

} // namespace weft::race

#endif // WEFT_RUNTIME_ANALYSIS_RACE_LOCKS_H
