//===- sites.cpp - Call stacks and access sites of the race detector ------===//
//
// The slow paths of sites.h: the interning itself, on a cache miss.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/sites.h"

namespace weft::race {

Sites::Sites() { reset(); }

void Sites::reset() {
  Nodes.clear();
  Nodes.push_back(Node{kRootStack, kRootStack, 0, 0});
  Children.clear();
  SiteTable.clear();
  SiteTable.push_back(Site{0, kRootStack, 0, 0}); // kUnknownSite
  SiteIds.clear();
  for (CacheEntry &E : StackCache)
    E = CacheEntry{};
  for (CacheEntry &E : SiteCache)
    E = CacheEntry{};
}

StackId Sites::childSlow(StackId Parent, std::uintptr_t Pc) {
  const Node &From = Nodes[Parent];
  StackId Id = intern(From.Depth == kStackDepth ? From.Shorter : Parent, Pc);
  CacheEntry &E = StackCache[hash(Parent, Pc) & (kCache - 1)];
  E = CacheEntry{Pc, Parent, Id, 0, 0, true};
  return Id;
}

StackId Sites::intern(StackId Parent, std::uintptr_t Pc) {
  auto It = Children.find({Parent, Pc});
  if (It != Children.end())
    return It->second;
  // [Pc, Parent's frames] without its outermost frame is [Pc, Parent's
  // without its outermost]; a recursion at most kStackDepth deep, since
  // each step is a frame shorter.
  StackId Shorter = Parent == kRootStack
                        ? kRootStack
                        : intern(Nodes[Parent].Shorter, Pc);
  auto Id = StackId(Nodes.size());
  Nodes.push_back(Node{Parent, Shorter, Pc, Nodes[Parent].Depth + 1});
  Children.emplace(std::make_pair(std::uint64_t(Parent), Pc), Id);
  return Id;
}

SiteId Sites::siteSlow(StackId Stack, std::uintptr_t Pc, std::uint32_t Size,
                       LocksetId Locks) {
  std::uint32_t Key = Stack ^ (Size << 27);
  StackId Kept = SiteTable.size() > kMaxStackedSite ? kRootStack : Stack;
  std::uint64_t Key64 = std::uint64_t(Kept) | std::uint64_t(Size) << 32;
  // The locks held make a site of their own (user-space code addresses
  // leave the top 16 bits free: they lie below 2^48 on x86-64 and AArch64,
  // where a program is loaded above 2^47).
  std::uintptr_t PcAndLocks = Pc ^ (std::uintptr_t(Locks) << 48);
  SiteId Id;
  auto It = SiteIds.find({Key64, PcAndLocks});
  if (It != SiteIds.end()) {
    Id = It->second;
  } else if (SiteTable.size() > kMaxSite) {
    Id = kUnknownSite;
  } else {
    Id = SiteId(SiteTable.size());
    SiteTable.push_back(Site{Pc, Kept, Size, Locks});
    SiteIds.emplace(std::make_pair(Key64, PcAndLocks), Id);
  }
  SiteCache[hash(Key ^ Locks, Pc) & (kCache - 1)] =
      CacheEntry{Pc, Key, Id, Size, Locks, true};
  return Id;
}

std::vector<std::uintptr_t> Sites::pcs(StackId Stack, std::size_t Max) const {
  std::vector<std::uintptr_t> Out;
  while (Stack != kRootStack && Out.size() < Max) {
    Out.push_back(Nodes[Stack].Pc);
    Stack = Nodes[Stack].Parent;
  }
  return Out;
}

} // namespace weft::race
