// Verify that a cilk_for step written as an assignment, `i = i + s`,
// `i = s + i` or `i = i - s`, runs exactly the iterations of the serial
// loop, as `i += s` and `i -= s` do: integer loop variables of several
// widths, signed and unsigned, constant, run-time, negative and unsigned
// strides (`i = i + (1 << 21)` over a size_t, as in Ligra's utils.h), a
// stride that the assignment truncates to a narrow variable, every
// condition, pointers and random-access iterators (the iterator's own
// `operator+` on either side, and `operator-`), a stride that names
// another loop's variable, and a function template. Each iteration adds its
// loop variable to a tally: count, sum and a mix that any missing,
// duplicated or wrong iteration changes.
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
#include <vector>

struct Tally {
  std::atomic<unsigned long long> n{0}, sum{0}, mix{0};
  void add(unsigned long long v) {
    ++n;
    sum += v;
    mix ^= (v + 0x9876543ull) * 0x9E3779B97F4A7C15ull;
  }
  void print(const char *what) {
    std::printf("%-58s n=%llu sum=%llu mix=%llx\n", what, n.load(), sum.load(),
                mix.load());
  }
};

// Run-time values, so that nothing is folded into constants.
static volatile int vn = 1000, vs = 3, vneg = -4;
static volatile unsigned vus = 5;
static volatile std::size_t vbytes = std::size_t(40) << 21;

#define RUN(T, INIT, COND, STEP)                                               \
  do {                                                                         \
    Tally t;                                                                   \
    cilk_for (T i = INIT; COND; STEP)                                          \
      t.add((unsigned long long)(i));                                          \
    t.print(#T " " #INIT "; " #COND "; " #STEP);                               \
  } while (0)

void integers() {
  int n = vn, s = vs, neg = vneg;
  unsigned us = vus;
  std::size_t bytes = vbytes;
  RUN(int, 0, i < n, i = i + 1);
  RUN(int, 0, i < n, i = 1 + i);
  RUN(int, n, i > 0, i = i - 1);
  RUN(int, 0, i <= n, i = i + 7);
  RUN(int, 0, n > i, i = s + i);
  RUN(int, n, i >= -n, i = i - s);
  RUN(int, n, i > -n, i = i + neg);
  RUN(int, -n, i < n, i = i - neg);
  RUN(int, 0, i != 1000, i = (i + 5));
  RUN(int, 63, i != -37, i = i - 4);
  RUN(int, INT_MIN, i < INT_MAX - (1 << 28), i = i + (1 << 28));
  RUN(unsigned, 0, i < 777u, i = i + us);
  RUN(unsigned, 100, i >= 5, i = i - 5);
  RUN(std::size_t, 0, i < bytes, i = i + (1 << 21));
  RUN(std::size_t, bytes, i > 0, i = i - (1 << 20));
  RUN(long, -1000000, i < 1000000, i = 7 + i);
  RUN(long long, LLONG_MIN, i < LLONG_MIN + 100, i = i + 9);
  RUN(short, -300, i <= 300, i = i + 3);
  RUN(unsigned char, 250, i != 4, i = i + 1); // wraps, as serially
  RUN(std::uint16_t, 0, i < 60000, i = i + 11);
  RUN(std::int8_t, 100, i >= -100, i = i - 9);
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
  RUN_RANGE(int *, arr, i < arr + 1000, i = i + 1, arr);
  RUN_RANGE(int *, arr, i != arr + 1000, i = 4 + i, arr);
  RUN_RANGE(int *, arr, i <= arr + 999, i = i + s, arr);
  RUN_RANGE(int *, arr + 999, i >= arr + 1, i = i - 7, arr);

  std::vector<int> v(arr, arr + 1000);
  using VI = std::vector<int>::iterator;
  using VC = std::vector<int>::const_iterator;
  using VR = std::vector<int>::reverse_iterator;
  RUN_RANGE(VI, v.begin(), i < v.end(), i = i + 5, v.begin());
  RUN_RANGE(VI, v.begin(), i < v.end(), i = s + i, v.begin());
  RUN_RANGE(VI, v.end() - 1, i >= v.begin() + 1, i = i - s, v.begin());
  RUN_RANGE(VC, v.cbegin(), i <= v.cend() - 1, i = i + 3, v.cbegin());
  RUN_RANGE(VR, v.rbegin(), i != v.rend(), i = i + 2, v.rbegin());
  std::deque<int> d(v.begin(), v.end());
  using DI = std::deque<int>::iterator;
  RUN_RANGE(DI, d.begin(), i != d.end(), i = i + 2, d.begin());
  RUN_RANGE(DI, d.end() - 1, i > d.begin(), i = i - 1, d.begin());
}

/// A stride that names another loop's variable: loop-invariant here.
void nested() {
  Tally t;
  cilk_for (int j = 1; j < 20; j = j + 1)
    cilk_for (int i = 0; i < 500; i = i + j)
      t.add((unsigned long long)(i * 31 + j));
  t.print("nested, stride j");
}

template <typename T> void in_template(T n, T s) {
  Tally t;
  cilk_for (T i = 0; i < n; i = i + s)
    t.add((unsigned long long)i);
  cilk_for (T i = n; i >= s; i = i - s)
    t.add((unsigned long long)i * 3);
  t.print(__PRETTY_FUNCTION__);
}

int main() {
  integers();
  pointers_and_iterators();
  nested();
  in_template<long>(vn, vs);
  in_template<unsigned short>(vn, 7);
  return 0;
}
