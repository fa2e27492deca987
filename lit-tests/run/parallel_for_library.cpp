// Verify weft::parallel_for (<weft/parallel_for.h>): integer, unsigned,
// pointer and iterator ranges (also a deque's, a class passed by value), empty and reversed ranges, an explicit grain,
// a body that spawns, and an exception from the body surfacing at the call;
// the range form over a vector, a C array, a deque, a const string, a
// temporary and an empty range, with a grain.
// With the plugin it splits the range with spawns (the stats show them);
// without it, it is a serial loop.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %until-stolen %t 2>&1 | FileCheck %s
// CHECK: weft-stats: workers=2 threads=2 spawns={{[1-9][0-9]*}} steals={{[1-9][0-9]*}}
#include <weft/parallel_for.h>
#include <weft/weft.h>

#include <atomic>
#include <cstdio>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

long fib(long n) {
  if (n < 2)
    return n;
  long x = weft_spawn fib(n - 1);
  long y = fib(n - 2);
  weft_sync;
  return x + y;
}

int main() {
  std::vector<long> out(100000);
  weft::parallel_for(0L, long(out.size()), [&](long i) { out[i] = i % 7; });
  long s = 0;
  for (long v : out)
    s += v;
  std::printf("integers: %ld\n", s);

  weft::parallel_for(out.begin(), out.end(),
                     [](std::vector<long>::iterator it) { *it *= 3; }, 16);
  weft::parallel_for(out.data(), out.data() + 10, [](long *p) { *p = 100; });
  s = 0;
  for (long v : out)
    s += v;
  std::printf("iterators and pointers: %ld\n", s);

  std::atomic<long> calls{0};
  weft::parallel_for(5u, 3u, [&](unsigned) { ++calls; });
  weft::parallel_for(7, 7, [&](int) { ++calls; });
  std::printf("empty ranges: %ld\n", calls.load());

  std::atomic<long> fibs{0};
  weft::parallel_for(0, 200, [&](int i) { fibs += fib(i % 20); }, 1);
  std::printf("spawning body: %ld\n", fibs.load());

  weft::parallel_for(out, [](long &x) { x += 1; });
  long arr[300];
  weft::parallel_for(arr, [&arr](long &x) { x = &x - arr; }, 8);
  std::deque<int> d(5000, 2);
  weft::parallel_for(d, [](int &x) { x *= 5; });
  // Deque iterators are passed by value through a temporary of each spawn.
  weft::parallel_for(d.begin(), d.end(),
                     [](std::deque<int>::iterator it) { *it += 3; }, 16);
  const std::string text(999, 'q');
  std::atomic<long> qs{0};
  weft::parallel_for(text, [&](const char &c) { qs += c == 'q'; });
  weft::parallel_for(std::vector<long>(70, 3), [&](long &x) { qs += x; });
  weft::parallel_for(std::vector<long>(), [&](long &) { qs += 1000; });
  s = qs;
  for (long v : out)
    s += v;
  for (long v : arr)
    s += v;
  for (int v : d)
    s += v;
  std::printf("ranges: %ld\n", s);

  try {
    weft::parallel_for(0, 1000, [](int i) {
      if (i == 700)
        throw std::runtime_error("from iteration 700");
    });
    std::printf("not reached\n");
  } catch (std::exception &e) {
    std::printf("caught: %s\n", e.what());
  }
  return 0;
}
