// Ordinary calls into spawning code: from the main test thread, from several
// OS threads at once, and repeatedly, so that the pool's lazy start, external
// thread registration and parking of callers' stacks are all exercised.
#include "spawn_kernels.h"

#include "occupancy.h"
#include "stack_budget.h"
#include "worker.h"

#include "weft/api.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <thread>
#include <vector>

namespace {

TEST(Calls, FibFromTheCallingThread) {
  for (long n = 0; n < 24; ++n)
    ASSERT_EQ(weft_test_fib(n), weft_test_serial_fib(n)) << "n=" << n;
}

TEST(Calls, ArraySumMatchesSerial) {
  std::vector<long> a(100000);
  std::iota(a.begin(), a.end(), -5000);
  long expected = std::accumulate(a.begin(), a.end(), 0L);
  for (int rep = 0; rep < 20; ++rep)
    ASSERT_EQ(weft_test_sum_array(a.data(), 0, (long)a.size()), expected);
}

TEST(Calls, LoopOfSpawnsIntoParentArray) {
  for (long n = 0; n <= 64; ++n) {
    long expected = 0;
    for (long i = 0; i < n; ++i)
      expected += i * i;
    ASSERT_EQ(weft_test_loop_spawns(n), expected) << "n=" << n;
  }
}

TEST(Calls, FromSeveralThreadsAtOnce) {
  constexpr int Threads = 4;
  std::vector<long> results(Threads);
  std::vector<std::thread> threads;
  for (int t = 0; t < Threads; ++t)
    threads.emplace_back([&results, t] {
      long sum = 0;
      for (int rep = 0; rep < 10; ++rep)
        sum += weft_test_fib(18 + t);
      results[t] = sum;
    });
  for (std::thread &th : threads)
    th.join();
  for (int t = 0; t < Threads; ++t)
    EXPECT_EQ(results[t], 10 * weft_test_serial_fib(18 + t)) << "thread " << t;
}

// The counters weft_get_stats() reads include what stolen continuations
// did on other workers: the join orders their counts before the return.
TEST(Calls, StatsCountEverySpawn) {
  struct weft_stats Before, After;
  weft_get_stats(&Before);
  ASSERT_EQ(weft_test_fib(10), 55);
  weft_get_stats(&After);
  EXPECT_EQ(After.spawns - Before.spawns, 88u); // one per call with n >= 2
  EXPECT_EQ(After.workers, weft_get_nworkers());
}

long serialLeafChain(long n) {
  long Sum = 0;
  for (long K = 1; K <= n; ++K)
    Sum += K % 7;
  return Sum;
}

long serialLoopChain(long n) {
  long Sum = 0;
  for (long K = 1; K <= n; ++K)
    Sum += K % 7 + (K + 1) % 7;
  return Sum;
}

// Chains whose stacks grow with their steals when nothing bounds them
// (runtime/stack_budget.h), under lowered bounds: some room for steals,
// room for one, and none (the pool's own stacks already fill it). Results
// stay right, nothing deadlocks, and the stacks in use stay within the
// bound, give or take the credits thieves took before it was lowered
// (one per worker), or within what earlier tests reached.
TEST(Calls, ChainsStayWithinALoweredStackBound) {
  ASSERT_EQ(weft_test_fib(10), 55); // starts the pool
  const std::int64_t Workers = weft::worker_count();
  const std::int64_t Earlier =
      static_cast<std::int64_t>(weft::peak_stacks_in_use());
  const std::int64_t MostAllowed = (Workers + 2) + Workers;
  const std::int64_t Default = weft::stack_budget().limit();
  for (std::int64_t Limit : {Workers + 2, Workers, std::int64_t(1)}) {
    weft::stack_budget().setLimit(Limit);
    for (int Rep = 0; Rep < 3; ++Rep) {
      ASSERT_EQ(weft_test_leaf_chain(10000), serialLeafChain(10000))
          << "limit " << Limit;
      ASSERT_EQ(weft_test_loop_chain(5000), serialLoopChain(5000))
          << "limit " << Limit;
    }
    EXPECT_LE(static_cast<std::int64_t>(weft::peak_stacks_in_use()),
              std::max(Earlier, MostAllowed))
        << "limit " << Limit;
  }
  weft::stack_budget().setLimit(Default);
}

} // namespace
