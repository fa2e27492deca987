// Parallel quicksort as in the Cilk-5 and OpenCilk examples: partition
// around the last element with std::partition, spawn the sort of the left
// part, sort the right part in the continuation, sync. The sort is a
// template over random-access iterators, run on std::vector<int> and on a
// std::vector of records ordered by key. Checked element by element against
// std::sort, and for the records that every payload is still with its key
// (quicksort is not stable, so a per-key checksum of payloads is compared).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 100000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 30000
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 5000
// CHECK: qsort ints n=100000 sorted ok
// CHECK: qsort records n=100000 sorted ok
#include <algorithm>
#include <cilk/cilk.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>
#include <vector>

template <typename Iter, typename Less>
static void sample_qsort(Iter begin, Iter end, Less less) {
  if (end - begin < 2)
    return;
  --end;
  const auto &pivot = *end;
  Iter middle = std::partition(begin, end, [&](const auto &x) { return less(x, pivot); });
  std::iter_swap(end, middle);
  cilk_spawn sample_qsort(begin, middle, less);
  sample_qsort(++middle, ++end, less);
  cilk_sync;
}

struct Record {
  uint32_t key;
  uint64_t payload;
};

static uint64_t next_random(uint64_t &state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return state >> 33;
}

// Order-independent summary of the records: each key mixed with its payload.
static uint64_t pair_checksum(const std::vector<Record> &v) {
  uint64_t sum = 0;
  for (const Record &r : v)
    sum += (r.key * 0x9e3779b97f4a7c15ull) ^ r.payload;
  return sum;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 10000;
  if (n < 1 || n > 10000000) {
    std::fprintf(stderr, "usage: qsort [1..10000000]\n");
    return 2;
  }
  uint64_t seed = 12345;
  bool all_ok = true;

  // Ints with many duplicates, so partitions of equal keys happen too.
  std::vector<int> ints(n);
  for (int &x : ints)
    x = static_cast<int>(next_random(seed) % (n / 4 + 1)) - static_cast<int>(n / 8);
  std::vector<int> expect = ints;
  std::sort(expect.begin(), expect.end());
  sample_qsort(ints.begin(), ints.end(), std::less<int>());
  bool ok = ints == expect;
  all_ok &= ok;
  std::printf("qsort ints n=%ld sorted %s\n", n, ok ? "ok" : "WRONG");

  std::vector<Record> records(n);
  for (Record &r : records) {
    r.key = static_cast<uint32_t>(next_random(seed) % (n / 2 + 1));
    r.payload = next_random(seed);
  }
  uint64_t before = pair_checksum(records);
  std::vector<uint32_t> keys;
  for (const Record &r : records)
    keys.push_back(r.key);
  std::sort(keys.begin(), keys.end());
  sample_qsort(records.begin(), records.end(),
               [](const Record &a, const Record &b) { return a.key < b.key; });
  ok = pair_checksum(records) == before;
  for (long i = 0; i < n; ++i)
    ok &= records[i].key == keys[i];
  all_ok &= ok;
  std::printf("qsort records n=%ld sorted %s\n", n, ok ? "ok" : "WRONG");
  return all_ok ? 0 : 1;
}
