// Cilk-5 style matmul: C = A * B for n x n row-major matrices (n a power of
// two) by recursive divide and conquer. Each level spawns all eight quadrant
// products at once, four into C and four into a temporary the frame owns (a
// std::vector that must outlive its writers), syncs, and adds the
// temporary into C with a recursive parallel add. Entries are small
// integers stored as doubles, so every product is exact and the result is
// compared exactly with a naive triple loop, along with an integer checksum.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 256 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 128
// CHECK: matmul n=256 ok checksum=
#include <cilk/cilk.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using Real = double;

enum { BASE = 16 };

// A view of a square block inside a larger row-major matrix.
struct Block {
  Real *p;
  long ld;
  Real *at(long i, long j) const { return p + i * ld + j; }
  Block quad(long half, int r, int c) const { return {at(r * half, c * half), ld}; }
};

static void base_mul(long n, Block a, Block b, Block c) {
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      Real sum = 0;
      for (long k = 0; k < n; ++k)
        sum += *a.at(i, k) * *b.at(k, j);
      *c.at(i, j) = sum;
    }
}

// c += t, splitting the rows in halves until a band is small.
static void add_to(long rows, long n, Block c, Block t) {
  if (rows <= BASE) {
    cilk_for (long i = 0; i < rows; ++i)
      for (long j = 0; j < n; ++j)
        *c.at(i, j) += *t.at(i, j);
    return;
  }
  long half = rows / 2;
  cilk_spawn add_to(half, n, c, t);
  add_to(rows - half, n, Block{c.at(half, 0), c.ld}, Block{t.at(half, 0), t.ld});
  cilk_sync;
}

// c = a * b.
static void matmul(long n, Block a, Block b, Block c) {
  if (n <= BASE) {
    base_mul(n, a, b, c);
    return;
  }
  long h = n / 2;
  std::vector<Real> tmp(static_cast<size_t>(n) * n);
  Block t{tmp.data(), n};
  // C_rc = A_r0 * B_0c, T_rc = A_r1 * B_1c.
  cilk_spawn matmul(h, a.quad(h, 0, 0), b.quad(h, 0, 0), c.quad(h, 0, 0));
  cilk_spawn matmul(h, a.quad(h, 0, 0), b.quad(h, 0, 1), c.quad(h, 0, 1));
  cilk_spawn matmul(h, a.quad(h, 1, 0), b.quad(h, 0, 0), c.quad(h, 1, 0));
  cilk_spawn matmul(h, a.quad(h, 1, 0), b.quad(h, 0, 1), c.quad(h, 1, 1));
  cilk_spawn matmul(h, a.quad(h, 0, 1), b.quad(h, 1, 0), t.quad(h, 0, 0));
  cilk_spawn matmul(h, a.quad(h, 0, 1), b.quad(h, 1, 1), t.quad(h, 0, 1));
  cilk_spawn matmul(h, a.quad(h, 1, 1), b.quad(h, 1, 0), t.quad(h, 1, 0));
  matmul(h, a.quad(h, 1, 1), b.quad(h, 1, 1), t.quad(h, 1, 1));
  cilk_sync;
  add_to(n, n, c, t);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 64;
  if (n < 1 || n > 2048 || (n & (n - 1)) != 0) {
    std::fprintf(stderr, "usage: matmul N (a power of two up to 2048)\n");
    return 2;
  }
  std::vector<Real> a(n * n), b(n * n), c(n * n, -1), naive(n * n);
  uint64_t state = 2024;
  for (long i = 0; i < n * n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    a[i] = static_cast<Real>((state >> 40) % 10);
    b[i] = static_cast<Real>((state >> 50) % 10) - 4;
  }
  matmul(n, Block{a.data(), n}, Block{b.data(), n}, Block{c.data(), n});

  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      Real sum = 0;
      for (long k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      naive[i * n + j] = sum;
    }
  bool ok = c == naive;
  int64_t checksum = 0;
  for (long i = 0; i < n * n; ++i)
    checksum += static_cast<int64_t>(c[i]) * (i % 1000 + 1);
  std::printf("matmul n=%ld %s checksum=%lld\n", n, ok ? "ok" : "WRONG",
              static_cast<long long>(checksum));
  return ok ? 0 : 1;
}
