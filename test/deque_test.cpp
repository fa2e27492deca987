// Unit and stress tests of the Chase-Lev deque (runtime/deque.h): owner
// order, thief order, growth, and every element taken exactly once by an
// owner racing at least four thieves over millions of operations, in both
// fence modes (fence.h). The ThreadSanitizer build runs the same tests with
// symmetric fences and smaller counts.
#include "deque.h"
#include "fence.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

using weft::Deque;
using weft::StealResult;

#ifdef WEFT_UNDER_TSAN
constexpr std::uintptr_t kStressItems = 200'000;
#else
constexpr std::uintptr_t kStressItems = 4'000'000;
#endif

/// Elements are pointer-sized; these tests push small integers cast to
/// pointers, never 0 (which pop() returns for "nothing").
using Item = void *;
Item item(std::uintptr_t N) { return reinterpret_cast<Item>(N); }
std::uintptr_t value(Item I) { return reinterpret_cast<std::uintptr_t>(I); }

StealResult stealOne(Deque<Item> &D, std::uintptr_t &Out) {
  Item I = nullptr;
  StealResult R = D.steal(I);
  Out = value(I);
  return R;
}

/// Starts \p Count thieves that steal from \p D until \p Done, counting
/// each value they take in \p Stolen.
std::vector<std::thread>
startCountingThieves(int Count, Deque<Item> &D,
                     std::vector<std::atomic<std::uint8_t>> &Stolen,
                     std::atomic<bool> &Done) {
  std::vector<std::thread> Threads;
  for (int T = 0; T < Count; ++T)
    Threads.emplace_back([&] {
      while (!Done.load(std::memory_order_acquire)) {
        std::uintptr_t V = 0;
        StealResult R = stealOne(D, V);
        if (R == StealResult::Success)
          Stolen[V].fetch_add(1, std::memory_order_relaxed);
        else if (R == StealResult::Empty)
          std::this_thread::yield(); // back off, as an idle worker does
      }
    });
  return Threads;
}

/// Runs each test in both fence modes where the build allows it.
class DequeTest : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    weft::fences_init();
    Saved = weft::detail::AsymmetricFences;
    if (GetParam() && !Saved)
      GTEST_SKIP() << "membarrier is not available in this build or kernel";
    weft::detail::AsymmetricFences = GetParam();
  }
  void TearDown() override { weft::detail::AsymmetricFences = Saved; }
  bool Saved = false;
};

TEST_P(DequeTest, EmptyDequeGivesNothing) {
  Deque<Item> D;
  EXPECT_EQ(D.pop(), nullptr);
  std::uintptr_t V = 0;
  EXPECT_EQ(stealOne(D, V), StealResult::Empty);
  EXPECT_FALSE(D.maybe_nonempty());
}

TEST_P(DequeTest, OwnerPopsNewestFirst) {
  Deque<Item> D;
  for (std::uintptr_t I = 1; I <= 10; ++I)
    D.push(item(I));
  for (std::uintptr_t I = 10; I >= 1; --I)
    ASSERT_EQ(value(D.pop()), I);
  EXPECT_EQ(D.pop(), nullptr);
}

TEST_P(DequeTest, ThievesTakeOldestFirst) {
  Deque<Item> D;
  for (std::uintptr_t I = 1; I <= 10; ++I)
    D.push(item(I));
  for (std::uintptr_t I = 1; I <= 10; ++I) {
    std::uintptr_t V = 0;
    ASSERT_EQ(stealOne(D, V), StealResult::Success);
    ASSERT_EQ(V, I);
  }
  std::uintptr_t V = 0;
  EXPECT_EQ(stealOne(D, V), StealResult::Empty);
  EXPECT_EQ(D.pop(), nullptr);
}

TEST_P(DequeTest, GrowthKeepsEveryElementInOrder) {
  Deque<Item> D;
  const std::uintptr_t N = 20 * Deque<Item>::kInitialCapacity + 7;
  // Interleave steals so that growth copies a window that does not start
  // at slot 0.
  std::uintptr_t NextStolen = 1;
  for (std::uintptr_t I = 1; I <= N; ++I) {
    D.push(item(I));
    if (I % 5 == 0) {
      std::uintptr_t V = 0;
      ASSERT_EQ(stealOne(D, V), StealResult::Success);
      ASSERT_EQ(V, NextStolen++);
    }
  }
  EXPECT_GT(D.capacity(), Deque<Item>::kInitialCapacity);
  EXPECT_EQ(D.size_hint(), static_cast<std::int64_t>(N - (NextStolen - 1)));
  for (std::uintptr_t I = N; I >= NextStolen; --I)
    ASSERT_EQ(value(D.pop()), I);
  EXPECT_EQ(D.pop(), nullptr);
}

TEST_P(DequeTest, PopAndStealAlternateOnTheLastElement) {
  Deque<Item> D;
  for (std::uintptr_t Round = 1; Round <= 1000; ++Round) {
    D.push(item(Round));
    if (Round % 2) {
      ASSERT_EQ(value(D.pop()), Round);
    } else {
      std::uintptr_t V = 0;
      ASSERT_EQ(stealOne(D, V), StealResult::Success);
      ASSERT_EQ(V, Round);
      ASSERT_EQ(D.pop(), nullptr) << "the thief took the only element";
    }
  }
}

/// Stampede: the owner pushes everything first, then pops while thieves
/// steal. Thieves must see increasing values, the owner decreasing ones,
/// and together they see each value once.
TEST_P(DequeTest, StampedeThievesAscendOwnerDescends) {
  constexpr int Thieves = 4;
  const std::uintptr_t N = kStressItems / 4;
  Deque<Item> D;
  for (std::uintptr_t I = 1; I <= N; ++I)
    D.push(item(I));
  std::vector<std::uint8_t> Seen(N + 1, 0);
  std::atomic<std::uintptr_t> Taken{0};
  std::vector<std::vector<std::uintptr_t>> Got(Thieves);
  std::vector<std::thread> Threads;
  for (int T = 0; T < Thieves; ++T)
    Threads.emplace_back([&, T] {
      while (Taken.load(std::memory_order_relaxed) < N) {
        std::uintptr_t V = 0;
        if (stealOne(D, V) == StealResult::Success) {
          Got[T].push_back(V);
          Taken.fetch_add(1, std::memory_order_relaxed);
        }
      }
    });
  std::vector<std::uintptr_t> Popped;
  while (Item I = D.pop()) {
    Popped.push_back(value(I));
    Taken.fetch_add(1, std::memory_order_relaxed);
  }
  for (std::thread &T : Threads)
    T.join();
  for (std::size_t I = 1; I < Popped.size(); ++I)
    ASSERT_LT(Popped[I], Popped[I - 1]);
  for (const auto &List : Got)
    for (std::size_t I = 1; I < List.size(); ++I)
      ASSERT_GT(List[I], List[I - 1]);
  for (std::uintptr_t V : Popped)
    ++Seen[V];
  for (const auto &List : Got)
    for (std::uintptr_t V : List)
      ++Seen[V];
  for (std::uintptr_t V = 1; V <= N; ++V)
    ASSERT_EQ(Seen[V], 1) << "value " << V;
}

/// Random stress: the owner pushes in bursts (which grow the ring) and pops
/// in bursts while thieves steal continuously, as a worker does; every
/// value pushed is taken exactly once.
TEST_P(DequeTest, EveryElementTakenExactlyOnceUnderContention) {
  constexpr int Thieves = 4;
  const std::uintptr_t N = kStressItems;
  Deque<Item> D;
  std::vector<std::atomic<std::uint8_t>> Seen(N + 1);
  std::atomic<bool> Done{false};
  std::atomic<std::uint64_t> Steals{0}, Lost{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < Thieves; ++T)
    Threads.emplace_back([&] {
      std::uint64_t MySteals = 0, MyLost = 0;
      while (!Done.load(std::memory_order_acquire)) {
        std::uintptr_t V = 0;
        StealResult R = stealOne(D, V);
        if (R == StealResult::Success) {
          Seen[V].fetch_add(1, std::memory_order_relaxed);
          ++MySteals;
        } else if (R == StealResult::Lost) {
          ++MyLost;
        }
      }
      Steals += MySteals;
      Lost += MyLost;
    });
  std::uint64_t Rng = 88172645463325252ull;
  auto next = [&] {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return Rng;
  };
  std::uintptr_t Pushed = 0;
  while (Pushed < N) {
    // Bursts of up to 1023 pushes: the ring grows past its initial size.
    std::uintptr_t Burst = next() % 1024;
    for (std::uintptr_t I = 0; I < Burst && Pushed < N; ++I)
      D.push(item(++Pushed));
    std::uintptr_t Pops = next() % 1024;
    for (std::uintptr_t I = 0; I < Pops; ++I) {
      Item X = D.pop();
      if (!X)
        break;
      Seen[value(X)].fetch_add(1, std::memory_order_relaxed);
    }
  }
  while (Item X = D.pop())
    Seen[value(X)].fetch_add(1, std::memory_order_relaxed);
  // What the owner could not pop was stolen; wait until thieves drain it.
  while (D.maybe_nonempty())
    std::this_thread::yield();
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Threads)
    T.join();
  for (std::uintptr_t V = 1; V <= N; ++V)
    ASSERT_EQ(Seen[V].load(), 1) << "value " << V;
  EXPECT_GT(D.capacity(), Deque<Item>::kInitialCapacity);
  EXPECT_GT(Steals.load(), 0u);
  RecordProperty("steals", static_cast<int>(Steals.load()));
  RecordProperty("lost_races", static_cast<int>(Lost.load()));
}

/// The worker pattern: push one element, run a little, pop it back; a
/// thief that wins the race owns it. Each element ends up with exactly one
/// of them, which is the property the frame protocol relies on.
TEST_P(DequeTest, PushPopPairsRaceThievesForTheLastElement) {
  constexpr int Thieves = 4;
  const std::uintptr_t N = kStressItems / 2;
  Deque<Item> D;
  std::vector<std::atomic<std::uint8_t>> Owner(N + 1);
  std::vector<std::atomic<std::uint8_t>> Stolen(N + 1);
  std::atomic<bool> Done{false};
  std::vector<std::thread> Threads = startCountingThieves(Thieves, D, Stolen, Done);
  for (std::uintptr_t I = 1; I <= N; ++I) {
    D.push(item(I));
    if (I % 64 == 0)
      std::this_thread::yield(); // a window for the thieves
    if (Item X = D.pop()) {
      ASSERT_EQ(value(X), I);
      Owner[I].fetch_add(1, std::memory_order_relaxed);
    }
  }
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Threads)
    T.join();
  std::uintptr_t StolenCount = 0;
  for (std::uintptr_t V = 1; V <= N; ++V) {
    ASSERT_EQ(Owner[V].load() + Stolen[V].load(), 1) << "value " << V;
    StolenCount += Stolen[V].load();
  }
  EXPECT_GT(StolenCount, 0u) << "no race with a thief was exercised";
  RecordProperty("stolen", static_cast<int>(StolenCount));
}

// The inlined pop tests no fence mode (deque.h, Fence modes): with
// symmetric fences the biased top makes every pop, marked or not, go on in
// pop_fenced(), which fences; with asymmetric fences a pop with an older
// element below it never does. Marks are bottom after the push in both.
TEST_P(DequeTest, EveryPopFencesExactlyWhenFencesAreSymmetric) {
  const bool Asymmetric = GetParam();
  constexpr int Pairs = 1000;
  Deque<Item> D;
  D.push(item(1)); // an older element, so that no pop is of the last one
  for (std::uintptr_t I = 2; I < Pairs + 2; ++I) {
    std::int64_t Mark = D.push(item(I));
    EXPECT_EQ(Mark, 2);
    EXPECT_EQ(Mark, D.owner_mark());
    ASSERT_TRUE(D.pop_owned(Mark));
  }
  D.push(item(2));
  EXPECT_EQ(D.pop(), item(2)); // the unmarked pop alike
  EXPECT_EQ(D.fenced_pops(), Asymmetric ? 0 : Pairs + 1);
  EXPECT_EQ(D.slow_pushes(), 2); // the first two pushes, new peaks
  EXPECT_EQ(D.size_hint(), 1);
  EXPECT_EQ(D.pop(), item(1)); // the last element: fenced in both modes
  EXPECT_EQ(D.fenced_pops(), Asymmetric ? 1 : Pairs + 2);
  EXPECT_EQ(D.pop(), nullptr);
}

// pop_owned(Mark), the fast clone's inlined pop, reports "taken back"
// without reading the element, and stores bottom from the push's mark
// without loading it first. Exercise both of its paths against thieves:
// the common one, where older elements lie below the newest, and the last
// element's race, once the thieves have taken those.
TEST_P(DequeTest, PopOwnedTellsTakenBackFromStolen) {
  constexpr int Thieves = 4;
  constexpr std::uintptr_t Base = 4; // values 1..Base stay below the pairs
  const std::uintptr_t N = kStressItems / 2;
  Deque<Item> D;
  std::vector<std::atomic<std::uint8_t>> Owner(N + Base + 1);
  std::vector<std::atomic<std::uint8_t>> Stolen(N + Base + 1);
  for (std::uintptr_t V = 1; V <= Base; ++V)
    D.push(item(V));
  std::atomic<bool> Done{false};
  std::vector<std::thread> Threads = startCountingThieves(Thieves, D, Stolen, Done);
  for (std::uintptr_t I = Base + 1; I <= N + Base; ++I) {
    std::int64_t Mark = D.push(item(I));
    if (I % 64 == 0)
      std::this_thread::yield(); // a window for the thieves
    if (D.pop_owned(Mark))
      Owner[I].fetch_add(1, std::memory_order_relaxed);
  }
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Threads)
    T.join();
  while (Item X = D.pop()) // what is left of the base
    Owner[value(X)].fetch_add(1, std::memory_order_relaxed);
  std::uintptr_t StolenPairs = 0;
  for (std::uintptr_t V = 1; V <= N + Base; ++V) {
    ASSERT_EQ(Owner[V].load() + Stolen[V].load(), 1) << "value " << V;
    if (V > Base)
      StolenPairs += Stolen[V].load();
  }
  EXPECT_GT(StolenPairs, 0u) << "the last element's race was not exercised";
}

// The spawn pattern with nesting, as fast clones run it: push a frame,
// push the child's frames and pop them back (each pop with its own
// push's mark), then pop the frame. Thieves take frames from the top
// meanwhile, so a child's pop often fails after its parent's frame was
// stolen and moves bottom itself, and the parent's mark is then stale.
// Each element still ends up with exactly one taker, and the deque stays
// consistent: once the owner is done, nothing is left in it.
TEST_P(DequeTest, NestedMarkedPopsAgreeWithThieves) {
  constexpr int Thieves = 4;
  constexpr int Depth = 3;
  const std::uintptr_t Rounds = kStressItems / (2 * Depth);
  Deque<Item> D;
  std::vector<std::atomic<std::uint8_t>> Owner(Rounds * Depth + 1);
  std::vector<std::atomic<std::uint8_t>> Stolen(Rounds * Depth + 1);
  std::atomic<bool> Done{false};
  std::vector<std::thread> Threads = startCountingThieves(Thieves, D, Stolen, Done);
  std::uintptr_t Next = 0;
  for (std::uintptr_t R = 0; R < Rounds; ++R) {
    std::uintptr_t Values[Depth];
    std::int64_t Marks[Depth];
    for (int L = 0; L < Depth; ++L) {
      Values[L] = ++Next;
      Marks[L] = D.push(item(Values[L]));
    }
    if (R % 32 == 0)
      std::this_thread::yield(); // a window for the thieves
    for (int L = Depth - 1; L >= 0; --L)
      if (D.pop_owned(Marks[L]))
        Owner[Values[L]].fetch_add(1, std::memory_order_relaxed);
    ASSERT_FALSE(D.maybe_nonempty()) << "round " << R;
  }
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Threads)
    T.join();
  std::uintptr_t StolenCount = 0;
  for (std::uintptr_t V = 1; V <= Next; ++V) {
    ASSERT_EQ(Owner[V].load() + Stolen[V].load(), 1) << "value " << V;
    StolenCount += Stolen[V].load();
  }
  EXPECT_GT(StolenCount, 0u) << "no steal was exercised";
}

// A stale mark, deterministically: every frame stolen, the child's failed
// pop leaves bottom where it found it, and the parent's pop, whose mark is
// below that bottom, must still fail and leave the deque empty and usable.
// The same holds for a mark that belongs to another deque (a parent whose
// stolen child returned on another thread).
TEST_P(DequeTest, StaleMarkFailsAndLeavesTheDequeConsistent) {
  Deque<Item> D;
  std::int64_t ParentMark = D.push(item(1));
  std::int64_t ChildMark = D.push(item(2));
  std::uintptr_t V = 0;
  ASSERT_EQ(stealOne(D, V), StealResult::Success);
  EXPECT_EQ(V, 1u);
  ASSERT_EQ(stealOne(D, V), StealResult::Success);
  EXPECT_EQ(V, 2u);
  EXPECT_FALSE(D.pop_owned(ChildMark));
  EXPECT_FALSE(D.pop_owned(ParentMark));
  EXPECT_FALSE(D.maybe_nonempty());
  EXPECT_EQ(stealOne(D, V), StealResult::Empty);

  Deque<Item> Other;
  Other.push(item(7));
  Other.push(item(8));
  Other.push(item(9));
  std::int64_t ForeignMark = Other.push(item(10));
  EXPECT_FALSE(D.pop_owned(ForeignMark));
  EXPECT_EQ(stealOne(D, V), StealResult::Empty);

  std::int64_t Mark = D.push(item(3));
  EXPECT_TRUE(D.pop_owned(Mark));
  Mark = D.push(item(4));
  ASSERT_EQ(stealOne(D, V), StealResult::Success);
  EXPECT_EQ(V, 4u);
  EXPECT_FALSE(D.pop_owned(Mark));
  EXPECT_FALSE(D.maybe_nonempty());
}

INSTANTIATE_TEST_SUITE_P(Fences, DequeTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &Info) {
                           return Info.param ? "Asymmetric" : "Symmetric";
                         });

} // namespace
