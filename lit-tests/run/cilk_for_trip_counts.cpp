// Verify that cilk_for runs exactly the iterations the serial loop runs, for
// every loop variable type (signed and unsigned integers of every width,
// pointers, random-access iterators of several containers), every condition
// (<, <=, !=, >, >=, and the limit on the left), every step (++, --, +=, -=,
// with constant, run-time, negative and unsigned strides), empty loops,
// loops shorter than the grain, distances near the type's range, and `!=`
// loops over unsigned variables that wrap around, as the serial ones do.
// Each iteration adds its loop variable to a tally: count, sum and a mix
// that any missing, duplicated or wrong iteration changes.
// RUN: %clangxx -O2 -w %s -o %t.serial
// RUN: %weftcxx -O2 -w %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 -w %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -w -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
// LOWERED: call void @__weft_parallel_for(
#include <cilk/cilk.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

struct Tally {
  std::atomic<unsigned long long> n{0}, sum{0}, mix{0};
  void add(unsigned long long v) {
    ++n;
    sum += v;
    mix ^= (v + 0x1234567ull) * 0x9E3779B97F4A7C15ull;
  }
  void print(const char *what) {
    std::printf("%-60s n=%llu sum=%llu mix=%llx\n", what, n.load(), sum.load(),
                mix.load());
  }
};

// Run-time values, so that nothing is folded into constants.
static volatile int vzero = 0, vn = 1000, vneg = -37, vs = 3, vnegs = -4;
static volatile unsigned vun = 777, vus = 5;
static volatile long vln = 100000;
static volatile std::size_t vsz = 4097;

#define RUN(T, INIT, COND, STEP)                                               \
  do {                                                                         \
    Tally t;                                                                   \
    cilk_for (T i = INIT; COND; STEP)                                          \
      t.add((unsigned long long)(i));                                          \
    t.print(#T " " #INIT "; " #COND "; " #STEP);                               \
  } while (0)

void integers() {
  int z = vzero, n = vn, m = vneg, s = vs, neg = vnegs;
  unsigned un = vun, us = vus;
  long ln = vln;
  std::size_t sz = vsz;
  RUN(int, 0, i < n, ++i);
  RUN(int, 0, i < n, i++);
  RUN(int, 0, i <= n, ++i);
  RUN(int, 0, i != n, ++i);
  RUN(int, 0, n > i, ++i);
  RUN(int, 0, n >= i, i += 7);
  RUN(int, n, i > 0, --i);
  RUN(int, n, i >= m, i--);
  RUN(int, n, m < i, i -= 3);
  RUN(int, n, i != m, i -= 1);
  RUN(int, 0, i < n, i += s);
  RUN(int, n, i > m, i -= s);
  RUN(int, n, i > m, i += neg);
  RUN(int, m, i < n, i -= neg);
  RUN(int, 0, i != 1000, i += 5);
  RUN(int, 63, i != m, i -= 4);
  RUN(int, 63, i != m, i += neg);
  RUN(int, m, i != 63, i -= neg);
  RUN(int, z, i < z, ++i);          // empty
  RUN(int, z, i > n, --i);          // empty
  RUN(int, z, i <= m, ++i);         // empty
  RUN(int, 0, i != z, ++i);         // empty
  RUN(int, 0, i < 3, ++i);          // shorter than any grain
  RUN(int, INT_MIN, i < INT_MIN + 10, ++i);
  RUN(int, INT_MIN, i < INT_MAX - (1 << 28), i += 1 << 28);
  RUN(int, INT_MAX, i > INT_MIN + 5, i -= 1 << 27);
  RUN(int, -5, i < 5u, ++i);        // compares as unsigned: never runs
  RUN(int, 0, i != un, ++i);        // compares as unsigned
  RUN(unsigned, 0, i < un, ++i);
  RUN(unsigned, un, i > 0, --i);
  RUN(unsigned, 0, i < un, i += us);
  RUN(unsigned, 100, i >= 5, i -= 5);
  RUN(unsigned, 0, i < ln, ++i);    // compares as long
  RUN(unsigned, 10, i != 2 + 0 * un, i -= 1);
  RUN(unsigned short, 65530, i != 10, ++i); // wraps, as serially
  RUN(unsigned char, 250, i != 4, ++i);     // wraps, as serially
  RUN(unsigned char, 3, i != 250, --i);     // wraps, as serially
  RUN(unsigned long long, ULLONG_MAX - 50, i != 20, ++i); // wraps
  RUN(long, -1000000, i < 1000000, i += 7);
  RUN(long, ln, i >= -ln, i -= 999);
  RUN(long long, LLONG_MIN, i < LLONG_MIN + 100, i += 9);
  RUN(long long, LLONG_MAX, i > LLONG_MAX - 100, --i);
  RUN(std::size_t, 0, i < sz, ++i);
  RUN(std::size_t, sz, i != 0, --i);
  RUN(short, -300, i <= 300, i += 3);
  RUN(signed char, -128, i < 127, ++i);
  RUN(char, 'a', i <= 'z', ++i);
  RUN(std::int8_t, 100, i >= -100, i -= 9);
  RUN(std::uint16_t, 0, i < 60000, i += 11);
#ifdef __SIZEOF_INT128__
  RUN(__int128, -50, i <= 50, ++i);
  RUN(unsigned __int128, 0, i < 1000, i += 3);
#endif
}

#define RUN_RANGE(T, INIT, COND, STEP, BASE)                                   \
  do {                                                                         \
    Tally t;                                                                   \
    cilk_for (T i = INIT; COND; STEP)                                          \
      t.add((unsigned long long)(i - (BASE)) * 1000 + (unsigned long long)*i); \
    t.print(#T " " #INIT "; " #COND "; " #STEP);                               \
  } while (0)

void pointers_and_iterators() {
  int s = vs;
  static int arr[1000];
  for (int k = 0; k < 1000; ++k)
    arr[k] = k * 3 + 1;
  const int *carr = arr;
  RUN_RANGE(int *, arr, i < arr + 1000, ++i, arr);
  RUN_RANGE(int *, arr, i != arr + 1000, i += 4, arr);
  RUN_RANGE(int *, arr, i <= arr + 999, i += s, arr);
  RUN_RANGE(int *, arr + 999, i > arr, --i, arr);
  RUN_RANGE(int *, arr + 999, i >= arr + 1, i -= 7, arr);
  RUN_RANGE(const int *, carr, i < arr + 10, ++i, carr); // mixed const
  RUN_RANGE(int *, arr, i < arr, ++i, arr);              // empty

  std::vector<int> v(arr, arr + 1000);
  using VI = std::vector<int>::iterator;
  using VC = std::vector<int>::const_iterator;
  RUN_RANGE(VI, v.begin(), i != v.end(), ++i, v.begin());
  RUN_RANGE(VI, v.begin(), i < v.end(), i += 5, v.begin());
  RUN_RANGE(VI, v.end() - 1, i >= v.begin() + 1, i -= s, v.begin());
  RUN_RANGE(VI, v.end() - 1, v.begin() < i, i--, v.begin());
  RUN_RANGE(VC, v.begin(), i != v.end(), ++i, v.cbegin()); // mixed types
  RUN_RANGE(VC, v.cbegin(), i <= v.cend() - 1, i += 3, v.cbegin());
  RUN_RANGE(VI, v.begin(), i != v.begin(), ++i, v.begin()); // empty
  using VR = std::vector<int>::reverse_iterator;
  RUN_RANGE(VR, v.rbegin(), i != v.rend(), ++i, v.rbegin());
  std::deque<int> d(v.begin(), v.end());
  using DI = std::deque<int>::iterator;
  RUN_RANGE(DI, d.begin(), i != d.end(), i += 2, d.begin());
  RUN_RANGE(DI, d.end() - 1, i > d.begin(), --i, d.begin());
  std::string str(300, 'x');
  using SI = std::string::iterator;
  RUN_RANGE(SI, str.begin(), i < str.end(), ++i, str.begin());
}

int main() {
  integers();
  pointers_and_iterators();
  return 0;
}
