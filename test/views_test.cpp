// Unit tests of reducer views (runtime/views.h): the per-strand map, and
// the merge of the views that a frame's strands deposit, which must apply
// the reduction in segment (serial) order whatever order the strands ended
// in, fold into the reducer's own storage when the first strand was the
// leftmost, and take deposits from many threads at once.
#include "frame.h"
#include "views.h"
#include "weft/frame_abi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <new>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using weft::Frame;
using weft::StrandViews;
using weft::ViewMap;

/// A string-concatenation reducer through the C interface: not
/// commutative, so the result spells out the order of the reductions.
struct ConcatReducer {
  __weft_reducer Base{};
  std::string Own;

  ConcatReducer() {
    Base.reduce = [](void *, void *L, void *R) {
      *static_cast<std::string *>(L) += *static_cast<std::string *>(R);
    };
    Base.identity = [](void *, void *V) { new (V) std::string(); };
    Base.destroy = [](void *, void *V) {
      static_cast<std::string *>(V)->~basic_string();
    };
    Base.view_size = sizeof(std::string);
    Base.view_align = alignof(std::string);
    Base.leftmost = &Own;
  }
};

/// A map holding one view of \p R with text \p Text, as a strand that
/// looked up R and appended Text would have.
ViewMap *strandWith(ConcatReducer &R, const std::string &Text) {
  void *View =
      ::operator new(sizeof(std::string), std::align_val_t(alignof(std::string)));
  new (View) std::string(Text);
  auto *Map = new ViewMap();
  Map->set(&R.Base, View);
  return Map;
}

const std::string &viewText(StrandViews Views, ConcatReducer &R) {
  void *View = Views.Map ? Views.Map->find(&R.Base) : nullptr;
  EXPECT_NE(View, nullptr);
  return *static_cast<std::string *>(View);
}

void release(StrandViews Views, ConcatReducer &R) {
  if (!Views.Map)
    return;
  if (void *View = Views.Map->remove(&R.Base)) {
    static_cast<std::string *>(View)->~basic_string();
    ::operator delete(View, std::align_val_t(alignof(std::string)));
  }
  delete Views.Map;
}

TEST(Views, MapAgreesWithStdMapUnderRandomOperations) {
  std::vector<__weft_reducer> Keys(300);
  std::map<const __weft_reducer *, void *> Model;
  ViewMap Map;
  std::mt19937 Rng(7);
  for (int Step = 0; Step < 20000; ++Step) {
    __weft_reducer *K = &Keys[Rng() % Keys.size()];
    void *V = reinterpret_cast<void *>(std::uintptr_t(Step + 1) << 4);
    switch (Rng() % 3) {
    case 0:
      Map.set(K, V);
      Model[K] = V;
      break;
    case 1: {
      auto It = Model.find(K);
      EXPECT_EQ(Map.remove(K), It == Model.end() ? nullptr : It->second);
      if (It != Model.end())
        Model.erase(It);
      break;
    }
    default: {
      auto It = Model.find(K);
      EXPECT_EQ(Map.find(K), It == Model.end() ? nullptr : It->second);
    }
    }
  }
  std::size_t Seen = 0;
  Map.forEach([&](__weft_reducer *K, void *V) {
    ++Seen;
    EXPECT_EQ(Model.at(K), V);
  });
  EXPECT_EQ(Seen, Model.size());
}

TEST(Views, MergeFollowsSegmentsNotArrival) {
  ConcatReducer R;
  std::vector<int> Order = {0, 1, 2, 3, 4};
  do {
    Frame F{};
    for (int Segment : Order)
      weft::deposit_views(&F, {strandWith(R, std::to_string(Segment)), false},
                          Segment);
    StrandViews Merged = weft::take_views(&F);
    EXPECT_FALSE(Merged.Leftmost);
    EXPECT_EQ(viewText(Merged, R), "01234");
    EXPECT_EQ(F.views.load(), 0u) << "the frame's list is emptied";
    release(Merged, R);
  } while (std::next_permutation(Order.begin(), Order.end()));
}

TEST(Views, LeftmostFirstStrandFoldsIntoTheReducersOwnStorage) {
  ConcatReducer R;
  R.Own = "own:";
  Frame F{};
  weft::deposit_views(&F, {strandWith(R, "b"), false}, 2);
  weft::deposit_views(&F, StrandViews::leftmost(), 0);
  weft::deposit_views(&F, {strandWith(R, "a"), false}, 1);
  StrandViews Merged = weft::take_views(&F);
  EXPECT_TRUE(Merged.Leftmost);
  EXPECT_EQ(Merged.Map, nullptr);
  EXPECT_EQ(R.Own, "own:ab");
}

TEST(Views, StrandsWithoutViewsContributeTheIdentity) {
  ConcatReducer R;
  Frame F{};
  weft::deposit_views(&F, StrandViews::stolen(), 0);
  weft::deposit_views(&F, {strandWith(R, "x"), false}, 2);
  weft::deposit_views(&F, StrandViews::stolen(), 1);
  StrandViews Merged = weft::take_views(&F);
  EXPECT_FALSE(Merged.Leftmost);
  EXPECT_EQ(viewText(Merged, R), "x");
  release(Merged, R);
}

TEST(Views, ReducerBuiltInALaterStrandKeepsItsOwnView) {
  // Registered in strand 1, so that strand's view is the reducer's storage;
  // strand 2 made an identity view. The merge folds 2 into the storage.
  ConcatReducer R;
  R.Own = "own";
  Frame F{};
  auto *Registered = new ViewMap();
  Registered->set(&R.Base, &R.Own);
  weft::deposit_views(&F, {strandWith(R, "+2"), false}, 2);
  weft::deposit_views(&F, {Registered, false}, 1);
  StrandViews Merged = weft::take_views(&F);
  EXPECT_EQ(Merged.Map->find(&R.Base), &R.Own);
  EXPECT_EQ(R.Own, "own+2");
  Merged.Map->remove(&R.Base);
  delete Merged.Map;
}

TEST(Views, ConcurrentDepositsMergeInSegmentOrder) {
  constexpr int Strands = 8;
  for (int Round = 0; Round < 50; ++Round) {
    ConcatReducer R;
    Frame F{};
    std::vector<std::thread> Threads;
    for (int Segment = Strands - 1; Segment >= 0; --Segment)
      Threads.emplace_back([&, Segment] {
        StrandViews Views = Segment == 0 ? StrandViews::leftmost()
                                         : StrandViews{strandWith(R, std::string(1, char('a' + Segment))), false};
        weft::deposit_views(&F, Views, Segment);
      });
    for (std::thread &T : Threads)
      T.join();
    StrandViews Merged = weft::take_views(&F);
    EXPECT_TRUE(Merged.Leftmost);
    EXPECT_EQ(R.Own, "bcdefgh");
  }
}

void addLongs(void *Left, void *Right) {
  *static_cast<long *>(Left) += *static_cast<long *>(Right);
}
void zeroLong(void *View) { *static_cast<long *>(View) = 0; }

// `cilk_reducer` variables live in a registry by address, in shards with a
// lock each: threads that register and unregister their own local
// reducers at once (each a recursive call declaring one) must neither
// lose nor mix up an entry. Under ThreadSanitizer, no race either.
TEST(Views, HyperRegistryTakesRegistrationsFromManyThreads) {
  constexpr int Threads = 8, Rounds = 2000, Locals = 16;
  std::vector<std::thread> Pool;
  std::vector<long> Sums(Threads, 0);
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([T, &Sums] {
      long Vars[Locals] = {};
      for (int Round = 0; Round < Rounds; ++Round) {
        for (long &V : Vars)
          __weft_hyper_register(&V, sizeof V, alignof(long), zeroLong,
                                addLongs);
        for (long &V : Vars) {
          // Outside Weft every strand is the leftmost: the variable itself.
          long *View = static_cast<long *>(__weft_hyper_lookup(
              &V, sizeof V, alignof(long), zeroLong, addLongs));
          EXPECT_EQ(View, &V);
          *View += 1;
        }
        for (long &V : Vars) {
          void *Key = &V;
          __weft_hyper_unregister(&Key);
        }
      }
      for (long V : Vars)
        Sums[T] += V;
    });
  for (std::thread &T : Pool)
    T.join();
  for (long Sum : Sums)
    EXPECT_EQ(Sum, long(Rounds) * Locals);
}

TEST(Views, LookupOutsideWeftUsesTheReducersOwnView) {
  ConcatReducer R;
  std::thread Outside([&] {
    EXPECT_EQ(__weft_reducer_lookup(&R.Base), &R.Own);
  });
  Outside.join();
}

} // namespace
