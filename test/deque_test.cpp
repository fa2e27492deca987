// Unit and stress tests of the Chase-Lev deque (runtime/deque.h): owner
// order, thief order, growth, and every element taken exactly once by an
// owner racing at least four thieves over millions of operations, under
// each fence policy (fence.h): adaptive, fenced and unfenced. The adaptive
// deque's switch between fenced and unfenced pops is tested step by step,
// and by randomized interleavings: deques that switch after every couple of
// quiet pops, raced by thieves of every patience. The ThreadSanitizer build
// runs the same tests with smaller counts.
#include "deque.h"
#include "fence.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

using weft::Deque;
using weft::FencePolicy;
using weft::StealResult;
using weft::Thief;

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

/// One steal by \p By that does not stop at a request: a thief whose owner
/// does not answer pays the membarrier once its patience runs out.
StealResult stealOne(Deque<Item> &D, std::uintptr_t &Out, Thief &By) {
  Item I = nullptr;
  StealResult R;
  while ((R = D.steal(I, By)) == StealResult::Requested)
    std::this_thread::yield();
  By.settled();
  Out = value(I);
  return R;
}

StealResult stealOne(Deque<Item> &D, std::uintptr_t &Out) {
  Thief By;
  return stealOne(D, Out, By);
}

/// Starts \p Count thieves that steal from \p D until \p Done, counting
/// each value they take in \p Stolen. Thief I waits \p Patience[I % size]
/// nanoseconds for an owner to answer its request.
std::vector<std::thread>
startCountingThieves(int Count, Deque<Item> &D,
                     std::vector<std::atomic<std::uint8_t>> &Stolen,
                     std::atomic<bool> &Done,
                     std::vector<std::int64_t> Patience = {Thief::kPatienceNs}) {
  std::vector<std::thread> Threads;
  for (int T = 0; T < Count; ++T)
    Threads.emplace_back([&, P = Patience[T % Patience.size()]] {
      Thief By(P);
      while (!Done.load(std::memory_order_acquire)) {
        Item I = nullptr;
        StealResult R = D.steal(I, By);
        if (R == StealResult::Success)
          Stolen[value(I)].fetch_add(1, std::memory_order_relaxed);
        else if (R != StealResult::Lost)
          std::this_thread::yield(); // back off, as an idle worker does
        if (R != StealResult::Requested)
          By.settled();
      }
    });
  return Threads;
}

/// Runs Step(I) for I = First + 1, First + 2, ... in chunks of \p Chunk
/// until a thief has taken one of those values (counted in \p Stolen) or
/// 8 chunks have run; returns the last I. A thief that pays a membarrier
/// per steal (unfenced, slower still under ThreadSanitizer) wins a race
/// for the last element rarely, and the races are what these tests are
/// for. \p Stolen holds at least First + 8 * Chunk + 1 counters.
template <typename StepFn>
std::uintptr_t stepUntilStolen(std::uintptr_t First, std::uintptr_t Chunk,
                               const std::vector<std::atomic<std::uint8_t>> &Stolen,
                               StepFn Step) {
  auto anyStolen = [&](std::uintptr_t Last) {
    for (std::uintptr_t V = First + 1; V <= Last; ++V)
      if (Stolen[V].load(std::memory_order_relaxed))
        return true;
    return false;
  };
  std::uintptr_t I = First;
  do {
    for (std::uintptr_t End = I + Chunk; I < End;)
      Step(++I);
  } while (I < First + 8 * Chunk && !anyStolen(I));
  return I;
}

/// Whether deques that pop unfenced can be made here: they need thieves'
/// membarriers (without, the deque makes itself fenced).
bool unfencedDequesAvailable() {
  weft::fences_init();
  return weft::membarrier_available();
}

/// Runs each test under each fence policy.
class DequeTest : public ::testing::TestWithParam<FencePolicy> {
protected:
  void SetUp() override {
    if (policy() != FencePolicy::Fenced && !unfencedDequesAvailable())
      GTEST_SKIP() << "membarrier is not available in this build or kernel";
  }
  FencePolicy policy() const { return GetParam(); }
};

/// The adaptive deque's own tests.
class DequeSwitch : public ::testing::Test {
protected:
  void SetUp() override {
    if (!unfencedDequesAvailable())
      GTEST_SKIP() << "membarrier is not available in this build or kernel";
  }
};

TEST_P(DequeTest, EmptyDequeGivesNothing) {
  Deque<Item> D{policy()};
  EXPECT_EQ(D.pop(), nullptr);
  std::uintptr_t V = 0;
  EXPECT_EQ(stealOne(D, V), StealResult::Empty);
  EXPECT_FALSE(D.maybe_nonempty());
}

TEST_P(DequeTest, OwnerPopsNewestFirst) {
  Deque<Item> D{policy()};
  for (std::uintptr_t I = 1; I <= 10; ++I)
    D.push(item(I));
  for (std::uintptr_t I = 10; I >= 1; --I)
    ASSERT_EQ(value(D.pop()), I);
  EXPECT_EQ(D.pop(), nullptr);
}

TEST_P(DequeTest, ThievesTakeOldestFirst) {
  Deque<Item> D{policy()};
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
  Deque<Item> D{policy()};
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
  Deque<Item> D{policy()};
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
  Deque<Item> D{policy()};
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
  Deque<Item> D{policy()};
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
  const std::uintptr_t Chunk = kStressItems / 2;
  Deque<Item> D{policy()};
  std::vector<std::atomic<std::uint8_t>> Owner(8 * Chunk + 1);
  std::vector<std::atomic<std::uint8_t>> Stolen(8 * Chunk + 1);
  std::atomic<bool> Done{false};
  std::vector<std::thread> Threads = startCountingThieves(Thieves, D, Stolen, Done);
  bool InOrder = true;
  const std::uintptr_t N = stepUntilStolen(0, Chunk, Stolen, [&](std::uintptr_t I) {
    D.push(item(I));
    if (I % 64 == 0)
      std::this_thread::yield(); // a window for the thieves
    if (Item X = D.pop()) {
      InOrder = InOrder && value(X) == I;
      Owner[I].fetch_add(1, std::memory_order_relaxed);
    }
  });
  EXPECT_TRUE(InOrder) << "the owner popped another element than its own";
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

// The inlined pop tests no fence policy (deque.h, Fence policies): on a
// fenced deque the tagged top makes every pop, marked or not, go on in
// pop_fenced(), which fences; on an unfenced deque, or an adaptive one that
// no thief asked, a pop with an older element below it never does. Marks
// are bottom after the push under every policy.
TEST_P(DequeTest, EveryPopFencesExactlyWhenTheDequeIsFenced) {
  const bool Fenced = policy() == FencePolicy::Fenced;
  constexpr int Pairs = 1000;
  Deque<Item> D{policy()};
  D.push(item(1)); // an older element, so that no pop is of the last one
  for (std::uintptr_t I = 2; I < Pairs + 2; ++I) {
    std::int64_t Mark = D.push(item(I));
    EXPECT_EQ(Mark, 2);
    EXPECT_EQ(Mark, D.owner_mark());
    ASSERT_TRUE(D.pop_owned(Mark));
  }
  D.push(item(2));
  EXPECT_EQ(D.pop(), item(2)); // the unmarked pop alike
  EXPECT_EQ(D.fenced_pops(), Fenced ? Pairs + 1 : 0);
  EXPECT_EQ(D.slow_pushes(), 2); // the first two pushes, new peaks
  EXPECT_EQ(D.size_hint(), 1);
  EXPECT_EQ(D.pop(), item(1)); // the last element: out of line under all
  EXPECT_EQ(D.fenced_pops(), Fenced ? Pairs + 2 : 1);
  EXPECT_EQ(D.pop(), nullptr);
  EXPECT_EQ(D.fenced(), Fenced);
  EXPECT_EQ(D.switches_to_fenced() + D.switches_to_unfenced(), 0);
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
  Deque<Item> D{policy()};
  std::vector<std::atomic<std::uint8_t>> Owner(8 * N + Base + 1);
  std::vector<std::atomic<std::uint8_t>> Stolen(8 * N + Base + 1);
  for (std::uintptr_t V = 1; V <= Base; ++V)
    D.push(item(V));
  std::atomic<bool> Done{false};
  std::vector<std::thread> Threads = startCountingThieves(Thieves, D, Stolen, Done);
  std::uintptr_t I = stepUntilStolen(Base, N, Stolen, [&](std::uintptr_t I) {
    std::int64_t Mark = D.push(item(I));
    if (I % 64 == 0)
      std::this_thread::yield(); // a window for the thieves
    if (D.pop_owned(Mark))
      Owner[I].fetch_add(1, std::memory_order_relaxed);
  });
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Threads)
    T.join();
  while (Item X = D.pop()) // what is left of the base
    Owner[value(X)].fetch_add(1, std::memory_order_relaxed);
  std::uintptr_t StolenPairs = 0;
  for (std::uintptr_t V = 1; V <= I; ++V) {
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
  Deque<Item> D{policy()};
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
  Deque<Item> D{policy()};
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

INSTANTIATE_TEST_SUITE_P(
    Fences, DequeTest,
    ::testing::Values(FencePolicy::Adaptive, FencePolicy::Fenced,
                      FencePolicy::Unfenced),
    [](const ::testing::TestParamInfo<FencePolicy> &Info) {
      switch (Info.param) {
      case FencePolicy::Adaptive:
        return "Adaptive";
      case FencePolicy::Fenced:
        return "Fenced";
      case FencePolicy::Unfenced:
        return "Unfenced";
      }
      return "Unknown";
    });

// --- The adaptive deque's switch (deque.h, Fence policies) ---------------

/// Pushes and pops one element above \p D's base, \p N times: pops that
/// are not of the last element, fenced or not as the deque is.
void popsAboveTheBase(Deque<Item> &D, int N) {
  for (int I = 0; I < N; ++I) {
    std::int64_t Mark = D.push(item(1000));
    ASSERT_TRUE(D.pop_owned(Mark));
  }
}

// The handshake step by step: a thief asks instead of paying a membarrier,
// the owner's next pop confirms, thieves then fence only, and once top has
// stood still for the quiet pops the owner drops the tag; the next thief
// asks again.
TEST_F(DequeSwitch, ThiefAsksOwnerConfirmsQuietOwnerSwitchesBack) {
  constexpr std::int64_t Quiet = 8;
  Deque<Item> D(FencePolicy::Adaptive, Quiet);
  Thief By(/*PatienceNs=*/std::int64_t(1) << 50); // never pays a membarrier
  for (std::uintptr_t I = 1; I <= 4; ++I)
    D.push(item(I));

  Item Out = nullptr;
  EXPECT_EQ(D.steal(Out, By), StealResult::Requested);
  EXPECT_EQ(D.steal(Out, By), StealResult::Requested); // asked already
  EXPECT_EQ(By.requests(), 1u);
  EXPECT_FALSE(D.fenced());
  EXPECT_EQ(D.switches_to_fenced(), 0);

  std::int64_t Before = D.fenced_pops();
  popsAboveTheBase(D, 1); // sees the request: fenced, and confirms it
  EXPECT_EQ(D.fenced_pops(), Before + 1);
  EXPECT_TRUE(D.fenced());
  EXPECT_EQ(D.switches_to_fenced(), 1);

  ASSERT_EQ(D.steal(Out, By), StealResult::Success);
  EXPECT_EQ(Out, item(1));
  EXPECT_EQ(By.membarriers(), 0u);

  // The steal moved top: the quiet count starts at the next fenced pop.
  popsAboveTheBase(D, Quiet);
  EXPECT_TRUE(D.fenced());
  popsAboveTheBase(D, 1);
  EXPECT_FALSE(D.fenced());
  EXPECT_EQ(D.switches_to_unfenced(), 1);
  Before = D.fenced_pops();
  popsAboveTheBase(D, 100);
  EXPECT_EQ(D.fenced_pops(), Before) << "pops after the switch back are unfenced";

  EXPECT_EQ(D.steal(Out, By), StealResult::Requested);
  EXPECT_EQ(By.requests(), 2u);
  EXPECT_EQ(value(D.pop()), 4u); // answers the request, pops as usual
  EXPECT_EQ(D.switches_to_fenced(), 2);
  EXPECT_EQ(value(D.pop()), 3u);
  EXPECT_EQ(value(D.pop()), 2u); // the last element, raced for on top
  EXPECT_EQ(D.pop(), nullptr);
  EXPECT_EQ(By.membarriers(), 0u);
}

// An owner that does not pop (a long leaf) does not answer: the thief
// waits out its patience, then pays the membarrier and steals.
TEST_F(DequeSwitch, UnansweredThiefPaysTheMembarrierAfterItsPatience) {
  Deque<Item> D(FencePolicy::Adaptive);
  constexpr std::int64_t Patience = 200'000; // 0.2 ms
  Thief By(Patience);
  D.push(item(1));
  D.push(item(2));
  auto Start = std::chrono::steady_clock::now();
  Item Out = nullptr;
  StealResult R;
  int Asked = 0;
  while ((R = D.steal(Out, By)) == StealResult::Requested)
    ++Asked;
  auto Waited = std::chrono::steady_clock::now() - Start;
  ASSERT_EQ(R, StealResult::Success);
  EXPECT_EQ(Out, item(1));
  EXPECT_GT(Asked, 0);
  EXPECT_GE(Waited, std::chrono::nanoseconds(Patience));
  EXPECT_EQ(By.membarriers(), 1u);
  EXPECT_EQ(By.requests(), 1u);
  EXPECT_FALSE(D.fenced()) << "nobody confirmed";
  // The owner still answers the request at its next pop, and gets the
  // element the thief left.
  EXPECT_EQ(value(D.pop()), 2u);
  EXPECT_TRUE(D.fenced());
}

// A request that lands between the owner's load of top and its CAS for the
// last element fails that CAS without taking the element: the owner races
// again and gets it (deque.h, take_last()). Forced here by a thief that
// asks in a loop while the owner pushes and pops the last element.
TEST_F(DequeSwitch, RequestsNeverCostTheOwnerItsLastElement) {
  Deque<Item> D(FencePolicy::Adaptive, /*QuietPops=*/1);
  std::atomic<bool> Done{false};
  std::vector<std::atomic<std::uint8_t>> Stolen(kStressItems / 4 + 1);
  std::vector<std::thread> Thieves =
      startCountingThieves(2, D, Stolen, Done, {std::int64_t(1) << 50});
  std::vector<std::uint8_t> Owner(kStressItems / 4 + 1, 0);
  for (std::uintptr_t I = 1; I <= kStressItems / 4; ++I) {
    D.push(item(I));
    if (I % 64 == 0)
      std::this_thread::yield(); // a window for the thieves
    if (Item X = D.pop()) {
      ASSERT_EQ(value(X), I);
      ++Owner[I];
    }
  }
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Thieves)
    T.join();
  for (std::uintptr_t V = 1; V <= kStressItems / 4; ++V)
    ASSERT_EQ(Owner[V] + Stolen[V].load(), 1) << "value " << V;
  EXPECT_GT(D.switches_to_fenced(), 0);
  EXPECT_GT(D.switches_to_unfenced(), 0);
}

// Randomized interleavings of the switch: a deque that drops its tag after
// every second quiet pop, so that it switches thousands of times, raced by
// four thieves, one of which never pays a membarrier, two that pay one
// after a few microseconds and one at once. The owner mixes bursts, marked
// pairs and nested pops. Every element is taken exactly once.
TEST_F(DequeSwitch, EveryElementTakenExactlyOnceWhileSwitching) {
  const std::uintptr_t N = kStressItems / 2;
  Deque<Item> D(FencePolicy::Adaptive, /*QuietPops=*/2);
  std::vector<std::atomic<std::uint8_t>> Owner(N + 1), Stolen(N + 1);
  std::atomic<bool> Done{false};
  std::vector<std::thread> Thieves = startCountingThieves(
      4, D, Stolen, Done, {std::int64_t(1) << 50, 2'000, 0, 5'000});
  std::uint64_t Rng = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return Rng;
  };
  auto took = [&](Item X) {
    if (X)
      Owner[value(X)].fetch_add(1, std::memory_order_relaxed);
  };
  std::uintptr_t Pushed = 0;
  while (Pushed < N) {
    if (next() % 8 == 0)
      std::this_thread::yield(); // a window for the thieves
    switch (next() % 3) {
    case 0: { // a burst, popped back in part
      std::uintptr_t Burst = next() % 64;
      for (std::uintptr_t I = 0; I < Burst && Pushed < N; ++I)
        D.push(item(++Pushed));
      for (std::uintptr_t I = next() % 64; I > 0; --I)
        took(D.pop());
      break;
    }
    case 1: { // marked pairs, as a loop of spawns
      for (int I = 0; I < 16 && Pushed < N; ++I) {
        std::uintptr_t V = ++Pushed;
        std::int64_t Mark = D.push(item(V));
        if (D.pop_owned(Mark))
          Owner[V].fetch_add(1, std::memory_order_relaxed);
      }
      break;
    }
    default: { // nested marked pops, as recursion
      std::uintptr_t Values[4];
      std::int64_t Marks[4];
      int Depth = 0;
      for (; Depth < 4 && Pushed < N; ++Depth) {
        Values[Depth] = ++Pushed;
        Marks[Depth] = D.push(item(Values[Depth]));
      }
      while (Depth-- > 0)
        if (D.pop_owned(Marks[Depth]))
          Owner[Values[Depth]].fetch_add(1, std::memory_order_relaxed);
      break;
    }
    }
  }
  while (Item X = D.pop())
    took(X);
  while (D.maybe_nonempty())
    std::this_thread::yield();
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Thieves)
    T.join();
  std::uintptr_t StolenCount = 0;
  for (std::uintptr_t V = 1; V <= N; ++V) {
    ASSERT_EQ(Owner[V].load() + Stolen[V].load(), 1) << "value " << V;
    StolenCount += Stolen[V].load();
  }
  EXPECT_GT(StolenCount, 0u);
  EXPECT_GT(D.switches_to_fenced(), 100);
  EXPECT_GT(D.switches_to_unfenced(), 100);
  RecordProperty("switches", static_cast<int>(D.switches_to_fenced()));
  RecordProperty("stolen", static_cast<int>(StolenCount));
}

} // namespace
