// Unit tests of the deque's peak size (runtime/deque.h, "Peak size"): the
// peak equals the most elements held at once, the slow push runs once per
// new peak and at most once more per steal, never once per push-pop pair,
// and under concurrent thieves the peak stays within the owner's depth.
#include "deque.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <random>
#include <thread>
#include <vector>

namespace {

using weft::Deque;
using weft::StealResult;

using Item = void *;
Item item(std::uintptr_t N) { return reinterpret_cast<Item>(N); }

TEST(DequePeak, EmptyDequeHasPeakZero) {
  Deque<Item> D;
  EXPECT_EQ(D.peak_size(), 0);
  EXPECT_EQ(D.slow_pushes(), 0);
}

// A loop of spawns: each push is taken back before the next. The peak is
// 1, and the slow push runs for the first push only: taking back the last
// element must re-arm the trap, or it would fire on every push.
TEST(DequePeak, LoopOfPushPopPairsTakesTheSlowPushOnce) {
  Deque<Item> D;
  for (std::uintptr_t I = 1; I <= 100'000; ++I) {
    D.push(item(I));
    ASSERT_TRUE(D.pop_owned());
  }
  EXPECT_EQ(D.peak_size(), 1);
  EXPECT_EQ(D.slow_pushes(), 1);
}

// A recursion of depth 30, run many times: peak 30, one slow push per
// level on the way down the first time, none afterwards.
TEST(DequePeak, RepeatedRecursionTrapsOncePerNewLevel) {
  Deque<Item> D;
  for (int Round = 0; Round < 1000; ++Round) {
    for (std::uintptr_t Level = 1; Level <= 30; ++Level)
      D.push(item(Level));
    for (int Level = 0; Level < 30; ++Level)
      ASSERT_TRUE(D.pop_owned());
  }
  EXPECT_EQ(D.peak_size(), 30);
  EXPECT_EQ(D.slow_pushes(), 30);
}

TEST(DequePeak, GrowsPastTheInitialCapacity) {
  Deque<Item> D;
  constexpr std::int64_t N = 3 * Deque<Item>::kInitialCapacity + 5;
  for (std::int64_t I = 1; I <= N; ++I)
    D.push(item(I));
  EXPECT_EQ(D.peak_size(), N);
  EXPECT_GE(D.capacity(), N);
  for (std::int64_t I = 0; I < N; ++I)
    ASSERT_NE(D.pop(), nullptr);
  D.push(item(1));
  EXPECT_EQ(D.peak_size(), N);
}

// Random pushes, pops and steals from one thread, against a model: the
// peak is exact, and the slow pushes are the new peaks plus at most one
// per steal.
TEST(DequePeak, MatchesAModelUnderPushesPopsAndSteals) {
  std::mt19937_64 Random(20261123);
  // Fenced, so that every steal of a non-empty deque succeeds at once (an
  // adaptive deque's first steal asks its owner to fence instead).
  Deque<Item> D{weft::FencePolicy::Fenced};
  weft::Thief Thief;
  std::deque<std::uintptr_t> Model;
  std::int64_t ModelPeak = 0, NewPeaks = 0, Steals = 0;
  std::uintptr_t Next = 1;
  for (int Op = 0; Op < 200'000; ++Op) {
    unsigned Kind = Random() % 8;
    if (Kind < 4 || Model.empty()) {
      D.push(item(Next));
      Model.push_back(Next++);
      if (std::int64_t(Model.size()) > ModelPeak) {
        ModelPeak = std::int64_t(Model.size());
        ++NewPeaks;
      }
    } else if (Kind < 7) {
      ASSERT_EQ(D.pop(), item(Model.back()));
      Model.pop_back();
    } else {
      Item Out = nullptr;
      ASSERT_EQ(D.steal(Out, Thief), StealResult::Success);
      ASSERT_EQ(Out, item(Model.front()));
      Model.pop_front();
      ++Steals;
    }
    ASSERT_EQ(D.peak_size(), ModelPeak) << "after operation " << Op;
  }
  EXPECT_GE(D.slow_pushes(), NewPeaks);
  EXPECT_LE(D.slow_pushes(), NewPeaks + Steals);
  EXPECT_GT(Steals, 1000);
}

// The owner recurses to depth 40 and back, over and over, while thieves
// steal the oldest frames: the peak counts what the owner saw, which never
// exceeds its depth.
TEST(DequePeak, StaysWithinTheDepthUnderConcurrentThieves) {
  constexpr int Depth = 40;
  Deque<Item> D;
  std::atomic<bool> Done{false};
  std::atomic<std::int64_t> Steals{0};
  std::vector<std::thread> Thieves;
  for (int T = 0; T < 2; ++T)
    Thieves.emplace_back([&] {
      weft::Thief Thief;
      while (!Done.load(std::memory_order_acquire)) {
        Item Out = nullptr;
        if (D.steal(Out, Thief) == StealResult::Success)
          Steals.fetch_add(1, std::memory_order_relaxed);
        else
          std::this_thread::yield();
      }
    });
  for (int Round = 0; Round < 20'000; ++Round) {
    int Pushed = 0;
    for (std::uintptr_t Level = 1; Level <= Depth; ++Level, ++Pushed)
      D.push(item(Level));
    // Pops that find a frame stolen end the descent, as a fast clone
    // whose frame was stolen stops popping.
    while (Pushed-- > 0 && D.pop_owned()) {
    }
    while (D.pop() != nullptr) {
    }
  }
  Done.store(true, std::memory_order_release);
  for (std::thread &T : Thieves)
    T.join();
  EXPECT_GE(D.peak_size(), 1);
  EXPECT_LE(D.peak_size(), Depth);
  EXPECT_LE(D.slow_pushes(), Depth + Steals.load());
}

} // namespace
