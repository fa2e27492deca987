// Ordinary calls into spawning code: from the main test thread, from several
// OS threads at once, and repeatedly, so that the pool's lazy start, external
// thread registration and parking of callers' stacks are all exercised.
#include "spawn_kernels.h"

#include "weft/api.h"

#include <gtest/gtest.h>

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

} // namespace
