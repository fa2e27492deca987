// Unit tests of the program's view of the runtime (weft/api.h,
// cilk/cilk_api.h): the worker count a program may set until the pool
// starts, also while other threads race to set it and to start the pool,
// through weft_set_nworkers and Cilk Plus's __cilkrts_set_param (every
// result code), and worker numbers of threads that have or have not
// entered Weft.
#include "config.h"
#include "worker.h"

#include "cilk/cilk_api.h"
#include "weft/api.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

using weft::WorkerCount;

TEST(WorkerCount, SetUntilFixed) {
  WorkerCount Count(4);
  EXPECT_EQ(Count.get(), 4u);
  EXPECT_EQ(Count.set(2), WEFT_OK);
  EXPECT_EQ(Count.get(), 2u);
  EXPECT_EQ(Count.fix(), 2u);
  EXPECT_EQ(Count.set(3), WEFT_ESTARTED);
  EXPECT_EQ(Count.get(), 2u);
}

// The work/span analysis runs on one worker, while a parallel loop's
// default grain follows the count the program asked for.
TEST(WorkerCount, PinnedToOneKeepsThePlannedCount) {
  WorkerCount Count(4);
  EXPECT_EQ(Count.set(3), WEFT_OK);
  Count.pinToOne();
  EXPECT_EQ(Count.get(), 1u);
  EXPECT_EQ(Count.planned(), 3u);
  EXPECT_EQ(Count.set(2), WEFT_ESTARTED);
  EXPECT_EQ(Count.fix(), 1u);
  EXPECT_EQ(Count.planned(), 3u);
}

TEST(WorkerCount, PlannedIsTheCountWhenNotPinned) {
  WorkerCount Count(4);
  EXPECT_EQ(Count.planned(), 4u);
  EXPECT_EQ(Count.set(2), WEFT_OK);
  EXPECT_EQ(Count.planned(), 2u);
  EXPECT_EQ(Count.fix(), 2u);
  EXPECT_EQ(Count.planned(), 2u);
}

TEST(WorkerCount, RejectsZeroAndTooMany) {
  WorkerCount Count(4);
  EXPECT_EQ(Count.set(0), WEFT_EINVAL);
  EXPECT_EQ(Count.set(WEFT_MAX_NWORKERS + 1), WEFT_EINVAL);
  EXPECT_EQ(Count.get(), 4u);
  EXPECT_EQ(Count.set(WEFT_MAX_NWORKERS), WEFT_OK);
  EXPECT_EQ(Count.fix(), WEFT_MAX_NWORKERS);
  EXPECT_EQ(Count.set(0), WEFT_EINVAL);
}

// Setters racing with the pool's start: every set() that succeeds comes
// before the fix, so the fixed count is the last successful one, and no
// setter succeeds once it has seen the count fixed.
TEST(WorkerCount, SettersRacingWithTheStart) {
  WorkerCount Count(1);
  std::atomic<bool> Go{false};
  std::vector<std::thread> Setters;
  std::atomic<int> LateSuccesses{0};
  for (unsigned T = 0; T < 4; ++T)
    Setters.emplace_back([&, T] {
      while (!Go.load())
        std::this_thread::yield();
      bool Fixed = false;
      for (unsigned I = 0; I < 2000; ++I) {
        int Result = Count.set(1 + (T * 7 + I) % 8);
        if (Result == WEFT_OK && Fixed)
          ++LateSuccesses;
        Fixed |= Result == WEFT_ESTARTED;
      }
    });
  Go.store(true);
  unsigned Fixed = Count.fix();
  for (std::thread &T : Setters)
    T.join();
  EXPECT_EQ(LateSuccesses.load(), 0);
  EXPECT_EQ(Count.get(), Fixed);
  EXPECT_GE(Fixed, 1u);
  EXPECT_LE(Fixed, 8u);
}

// Readers, which take no lock, racing with setters and the start: a reader
// sees only counts that were set, and once the count is fixed, the fixed
// one. Under ThreadSanitizer (unit_tsan) this also checks that the lock-free
// reads race with nothing.
TEST(WorkerCount, ReadersRacingWithSettersAndTheStart) {
  WorkerCount Count(5);
  std::atomic<bool> Go{false}, Started{false};
  std::atomic<int> Strange{0};
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < 2; ++T)
    Threads.emplace_back([&, T] {
      while (!Go.load())
        std::this_thread::yield();
      for (unsigned I = 0; I < 2000; ++I)
        Count.set(1 + (T * 3 + I) % 4);
    });
  std::atomic<unsigned> FixedSeen{0};
  for (unsigned T = 0; T < 2; ++T)
    Threads.emplace_back([&] {
      while (!Go.load())
        std::this_thread::yield();
      for (unsigned I = 0; I < 20000; ++I) {
        bool After = Started.load();
        unsigned Seen = Count.get(), Planned = Count.planned();
        if (Seen < 1 || Seen > 5 || Planned < 1 || Planned > 5)
          ++Strange;
        if (After && Seen != FixedSeen.load())
          ++Strange;
      }
    });
  Go.store(true);
  std::this_thread::yield();
  FixedSeen.store(Count.fix());
  Started.store(true);
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Strange.load(), 0);
  EXPECT_EQ(Count.get(), FixedSeen.load());
}

TEST(CilkSetParam, SetsNworkersUntilFixed) {
  WorkerCount Count(4);
  EXPECT_EQ(weft::set_cilk_param(Count, "nworkers", "2", 4),
            __CILKRTS_SET_PARAM_SUCCESS);
  EXPECT_EQ(Count.get(), 2u);
  EXPECT_EQ(weft::set_cilk_param(Count, "nworkers", "256", 4),
            __CILKRTS_SET_PARAM_SUCCESS);
  EXPECT_EQ(Count.get(), 256u);
  // "0" restores the default, as in Cilk Plus.
  EXPECT_EQ(weft::set_cilk_param(Count, "nworkers", "0", 3),
            __CILKRTS_SET_PARAM_SUCCESS);
  EXPECT_EQ(Count.get(), 3u);
  EXPECT_EQ(Count.fix(), 3u);
  EXPECT_EQ(weft::set_cilk_param(Count, "nworkers", "2", 4),
            __CILKRTS_SET_PARAM_LATE);
  // Too late whatever the value, as in Cilk Plus.
  EXPECT_EQ(weft::set_cilk_param(Count, "nworkers", "many", 4),
            __CILKRTS_SET_PARAM_LATE);
  EXPECT_EQ(Count.get(), 3u);
}

TEST(CilkSetParam, RejectsBadValuesAndOtherParameters) {
  WorkerCount Count(4);
  struct {
    const char *Param, *Value;
    int Result;
  } Cases[] = {
      {"nworkers", "257", __CILKRTS_SET_PARAM_XRANGE},
      {"nworkers", "-1", __CILKRTS_SET_PARAM_XRANGE},
      {"nworkers", "99999999999999999999999", __CILKRTS_SET_PARAM_XRANGE},
      {"nworkers", "", __CILKRTS_SET_PARAM_INVALID},
      {"nworkers", "four", __CILKRTS_SET_PARAM_INVALID},
      {"nworkers", "4x", __CILKRTS_SET_PARAM_INVALID},
      {"nworkers", "-", __CILKRTS_SET_PARAM_INVALID},
      {"nworkers", nullptr, __CILKRTS_SET_PARAM_INVALID},
      {nullptr, "4", __CILKRTS_SET_PARAM_INVALID},
      {"force reduce", "1", __CILKRTS_SET_PARAM_UNIMP},
      {"stack size", "0x800000", __CILKRTS_SET_PARAM_UNIMP},
      {"NWORKERS", "4", __CILKRTS_SET_PARAM_UNIMP},
  };
  for (const auto &C : Cases)
    EXPECT_EQ(weft::set_cilk_param(Count, C.Param, C.Value, 4), C.Result)
        << (C.Param ? C.Param : "(null)") << " = "
        << (C.Value ? C.Value : "(null)");
  EXPECT_EQ(Count.get(), 4u);
  EXPECT_FALSE(Count.fixed());
}

TEST(Api, CountIsFixedOnceThePoolRuns) {
  weft::current_or_new_worker(); // starts the pool if no test did
  EXPECT_EQ(weft_set_nworkers(1), WEFT_ESTARTED);
  EXPECT_EQ(weft_set_nworkers(0), WEFT_EINVAL);
  EXPECT_GE(weft_get_nworkers(), 1u);
  EXPECT_EQ(__cilkrts_get_nworkers(), weft_get_nworkers());
  EXPECT_EQ(__cilkrts_set_param("nworkers", "1"), __CILKRTS_SET_PARAM_LATE);
  EXPECT_EQ(__cilkrts_set_param("force reduce", "1"),
            __CILKRTS_SET_PARAM_UNIMP);
  __cilkrts_end_cilk(); // ends nothing: the count stays fixed
  EXPECT_EQ(__cilkrts_set_param("nworkers", "1"), __CILKRTS_SET_PARAM_LATE);
  struct weft_stats Stats;
  weft_get_stats(&Stats);
  EXPECT_EQ(Stats.workers, weft_get_nworkers());
  EXPECT_GE(Stats.threads, Stats.workers); // the starter and the pool
}

TEST(Api, ThreadThatNeverSpawnedIsWorkerZero) {
  unsigned Number = 99;
  std::thread([&] { Number = __cilkrts_get_worker_number(); }).join();
  EXPECT_EQ(Number, 0u);
}

// A thread that never entered Weft reads the unowned worker where the
// inlined push reads its own (worker.h, NoWorker), and that worker's deque
// refuses the push, however many times, so that the push always comes to
// the runtime, which registers the thread; the runtime itself says "no
// worker".
TEST(Api, ThreadThatNeverSpawnedMeetsADequeThatRefusesItsPush) {
  std::thread([] {
    EXPECT_EQ(weft::detail::ThreadWorker, &weft::detail::NoWorker.W);
    EXPECT_EQ(weft::current_worker(), nullptr);
    EXPECT_EQ(weft::thread_worker_or_null(), nullptr);
    for (int Attempt = 0; Attempt < 3; ++Attempt) {
      std::int64_t Mark = -1;
      EXPECT_FALSE(weft::detail::ThreadWorker->deque.try_push(nullptr, Mark));
    }
    weft::Worker *W = weft::current_or_new_worker();
    ASSERT_NE(W, nullptr);
    EXPECT_NE(W, &weft::detail::NoWorker.W);
    EXPECT_EQ(weft::detail::ThreadWorker, W);
    EXPECT_EQ(weft::current_worker(), W);
  }).join();
  EXPECT_EQ(weft::detail::NoWorker.W.deque.size_hint(), 0);
}

// The starter and the pool hold 0 to P-1; another thread gets a number
// of its own.
TEST(Api, LaterExternalThreadsFollowThePool) {
  weft::current_or_new_worker();
  unsigned Number = 0;
  std::thread([&] {
    weft::current_or_new_worker();
    Number = weft_get_worker_number();
  }).join();
  EXPECT_GE(Number, weft_get_nworkers());
}

} // namespace
