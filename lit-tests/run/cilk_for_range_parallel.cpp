// Verify that the iterations of a cilk_for over a range run on several
// workers: at P=2 with forced steals the runtime counts steals and the
// iterations see more than one thread; at P=1 everything runs on the
// calling thread, unstolen.
// RUN: %weftcxx -O2 %s -o %t
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %until-stolen %t 2>&1 | FileCheck --check-prefix=TWO %s
// TWO: sum=2016 threads>1=yes
// TWO: weft-stats: workers=2 threads=2 spawns={{[0-9]+}} steals={{[1-9][0-9]*}}
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t 2>&1 | FileCheck --check-prefix=ONE %s
// ONE: sum=2016 threads>1=no
// ONE: weft-stats: workers=1 threads=1 spawns={{[0-9]+}} steals=0
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>
#include <vector>

static std::mutex m;
static std::set<std::thread::id> seen;

static long spin(long i) {
  volatile long x = i;
  for (int k = 0; k < 20000; ++k)
    x = x * 6364136223846793005l + 1;
  return x;
}

int main() {
  std::vector<long> v(64);
  std::iota(v.begin(), v.end(), 0);
  std::atomic<long> sum{0};
  // A few rounds, so that a slow start of the second worker cannot hide it.
  for (int round = 0; round < 20; ++round) {
    sum = 0;
#pragma cilk grainsize 1
    cilk_for (const long &i : v) {
      spin(i);
      sum += i;
      std::lock_guard<std::mutex> lock(m);
      seen.insert(std::this_thread::get_id());
    }
    if (seen.size() > 1)
      break;
  }
  std::printf("sum=%ld threads>1=%s\n", sum.load(), seen.size() > 1 ? "yes" : "no");
  return 0;
}
