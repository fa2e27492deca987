// Cilk-5 style rectmul: C (m x p) = A (m x n) * B (n x p), or C += A * B,
// for arbitrary sizes, by splitting the largest of the three dimensions in
// two. Splitting m or p gives two products that write disjoint halves of C
// and run in parallel; splitting n gives two products into the same C, the
// second adding to the first, so they run one after the other (each of them
// parallel inside). Sizes are odd so the halves differ. Integer matrices,
// compared exactly with a naive triple loop, for C = A * B and for
// C += A * B on a C that already holds values.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 97 151 203 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 97 151 203
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 45 31 67
// CHECK: rectmul 97x151 * 151x203 overwrite ok
// CHECK: rectmul 97x151 * 151x203 accumulate ok
#include <cilk/cilk.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// A row-major matrix stored elsewhere: first element and row stride.
struct View {
  int64_t *p;
  long ld;
  int64_t &operator()(long i, long j) const { return p[i * ld + j]; }
  View offset(long i, long j) const { return {&(*this)(i, j), ld}; }
};

// Below this many multiply-adds a block is computed directly.
constexpr long LEAF_WORK = 4096;

static void rectmul(View a, View b, View c, long m, long n, long p, bool add) {
  if (m * n * p <= LEAF_WORK) {
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < p; ++j) {
        int64_t sum = add ? c(i, j) : 0;
        for (long k = 0; k < n; ++k)
          sum += a(i, k) * b(k, j);
        c(i, j) = sum;
      }
    return;
  }
  if (m >= n && m >= p) {
    long h = m / 2;
    cilk_spawn rectmul(a, b, c, h, n, p, add);
    rectmul(a.offset(h, 0), b, c.offset(h, 0), m - h, n, p, add);
  } else if (p >= n) {
    long h = p / 2;
    cilk_spawn rectmul(a, b, c, m, n, h, add);
    rectmul(a, b.offset(0, h), c.offset(0, h), m, n, p - h, add);
  } else {
    // Both halves of the inner dimension update all of C: in order.
    long h = n / 2;
    rectmul(a, b, c, m, h, p, add);
    rectmul(a.offset(0, h), b.offset(h, 0), c, m, n - h, p, true);
  }
  cilk_sync;
}

static bool run(const char *what, long m, long n, long p, bool add, uint64_t seed) {
  std::vector<int64_t> a(m * n), b(n * p), c(m * p), expect(m * p);
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((seed >> 33) % 2001) - 1000;
  };
  for (int64_t &x : a)
    x = next();
  for (int64_t &x : b)
    x = next();
  for (int64_t &x : c)
    x = add ? next() : 7;
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < p; ++j) {
      int64_t sum = add ? c[i * p + j] : 0;
      for (long k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * p + j];
      expect[i * p + j] = sum;
    }
  rectmul(View{a.data(), n}, View{b.data(), p}, View{c.data(), p}, m, n, p, add);
  bool ok = c == expect;
  std::printf("rectmul %ldx%ld * %ldx%ld %s %s\n", m, n, n, p, what, ok ? "ok" : "WRONG");
  return ok;
}

int main(int argc, char **argv) {
  long m = argc > 3 ? std::atol(argv[1]) : 33;
  long n = argc > 3 ? std::atol(argv[2]) : 47;
  long p = argc > 3 ? std::atol(argv[3]) : 21;
  if (m < 1 || n < 1 || p < 1 || m > 2000 || n > 2000 || p > 2000) {
    std::fprintf(stderr, "usage: rectmul M N P (each 1..2000)\n");
    return 2;
  }
  bool ok = run("overwrite", m, n, p, false, 1);
  ok &= run("accumulate", m, n, p, true, 2);
  return ok ? 0 : 1;
}
