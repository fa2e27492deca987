//===- sites.h - Call stacks and access sites of the race detector --------===//
//
// A report names each of the two accesses with its call stack, but a shadow
// cell has 4 bytes for it: the call stacks are interned. Every function
// entry (__tsan_func_entry(pc), pc being where it returns to in its caller)
// moves the thread's current stack node to the child of the current one
// for that pc, in a trie of the stacks seen; an access's site is (stack
// node, access pc, size), interned too, and a cell keeps its number with
// 23 bits. Both lookups go through a small direct-mapped cache first,
// since a loop repeats the same few.
//
// A report shows the innermost kStackDepth frames of a stack, so that is
// all a node stands for: the child of a node that already holds
// kStackDepth frames drops its outermost one (Node::Shorter, the same
// frames but that one). So the trie grows with the distinct windows of
// kStackDepth frames the code has, not with the depth or the shape of a
// recursion, whose every call would otherwise be a stack of its own. It
// and the sites are never pruned.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_SITES_H
#define WEFT_RUNTIME_ANALYSIS_RACE_SITES_H

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace weft::race {

using StackId = std::uint32_t;
using SiteId = std::uint32_t;

/// The stack of no function (the root of the trie).
inline constexpr StackId kRootStack = 0;
/// The innermost frames of a call stack that a stack node keeps.
inline constexpr unsigned kStackDepth = 7;
/// The site used when the 23 bits of site numbers run out.
inline constexpr SiteId kUnknownSite = 0;
/// A set of locks, interned (locks.h); 0 is the empty set.
using LocksetId = std::uint32_t;
inline constexpr SiteId kMaxSite = (1u << 23) - 1;
/// Sites with a call stack stop here; the rest of the numbers are for
/// sites without (the access's code address and size only), of which a
/// program has few, so that a deep recursion's many stacks cannot leave
/// later accesses without a location.
inline constexpr SiteId kMaxStackedSite = kMaxSite - (1u << 20);

struct Site {
  std::uintptr_t Pc;
  StackId Stack;
  std::uint32_t Size;
  LocksetId Locks; // the locks held at the access (locks.h), 0 for none
};

class Sites {
public:
  Sites();

  /// The stack node for calling, from Parent, a function that returns to
  /// Pc.
  StackId child(StackId Parent, std::uintptr_t Pc) {
    CacheEntry &E = StackCache[hash(Parent, Pc) & (kCache - 1)];
    if (__builtin_expect(E.Pc == Pc && E.Key == Parent && E.Valid, true))
      return E.Value;
    return childSlow(Parent, Pc);
  }

  /// The site of an access of Size bytes at Pc with call stack Stack,
  /// holding the locks Locks.
  SiteId site(StackId Stack, std::uintptr_t Pc, std::uint32_t Size,
              LocksetId Locks = 0) {
    std::uint32_t Key = Stack ^ (Size << 27);
    CacheEntry &E = SiteCache[hash(Key ^ Locks, Pc) & (kCache - 1)];
    if (__builtin_expect(E.Pc == Pc && E.Key == Key && E.Valid &&
                             E.Size == Size && E.Locks == Locks,
                         true))
      return E.Value;
    return siteSlow(Stack, Pc, Size, Locks);
  }

  const Site &siteOf(SiteId Id) const { return SiteTable[Id]; }
  /// Stack nodes so far, the root among them.
  std::size_t stacks() const { return Nodes.size(); }
  /// The pcs of Stack, innermost first, at most Max.
  std::vector<std::uintptr_t> pcs(StackId Stack, std::size_t Max) const;

  void reset();

private:
  static constexpr std::size_t kCache = 4096;
  struct CacheEntry {
    std::uintptr_t Pc = 0;
    std::uint32_t Key = 0;
    std::uint32_t Value = 0;
    std::uint32_t Size = 0;
    LocksetId Locks = 0;
    bool Valid = false;
  };
  /// A stack: the call at Pc (its return address) from the stack Parent,
  /// Depth frames in all, at most kStackDepth; Shorter is the node of the
  /// same frames but the outermost.
  struct Node {
    StackId Parent;
    StackId Shorter;
    std::uintptr_t Pc;
    unsigned Depth;
  };
  struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uintptr_t> &K) const {
      return std::size_t(hash64(K.first ^ (K.second * 0x9e3779b97f4a7c15ull)));
    }
  };

  static std::uint64_t hash64(std::uint64_t X) {
    X ^= X >> 33;
    X *= 0xff51afd7ed558ccdull;
    X ^= X >> 33;
    return X;
  }
  static std::size_t hash(std::uint32_t Key, std::uintptr_t Pc) {
    return std::size_t((Pc ^ (std::uint64_t(Key) * 0x9e3779b97f4a7c15ull)) >> 2) ^
           std::size_t(Key);
  }

  StackId childSlow(StackId Parent, std::uintptr_t Pc);
  /// The node of the call at Pc from Parent, which holds fewer than
  /// kStackDepth frames.
  StackId intern(StackId Parent, std::uintptr_t Pc);
  SiteId siteSlow(StackId Stack, std::uintptr_t Pc, std::uint32_t Size,
                  LocksetId Locks);

  std::vector<Node> Nodes;
  std::unordered_map<std::pair<std::uint64_t, std::uintptr_t>, StackId, PairHash>
      Children;
  std::vector<Site> SiteTable;
  std::unordered_map<std::pair<std::uint64_t, std::uintptr_t>, SiteId, PairHash>
      SiteIds;
  CacheEntry StackCache[kCache];
  CacheEntry SiteCache[kCache];
};

} // namespace weft::race

#endif // WEFT_RUNTIME_ANALYSIS_RACE_SITES_H
