// Cilk-5 style lu: in-place LU decomposition without pivoting of a
// diagonally dominant n x n matrix by recursive blocks, as in Cilk-5's
// lu.cilk. lu factors the top-left block, then solves for the top-right
// block (a triangular solve with L) in parallel with the bottom-left block
// (a triangular solve with U), updates the Schur complement, and recurses on
// it. The solves split their right-hand sides into independent halves and
// run them in parallel; the Schur update spawns four quadrant products, syncs,
// and spawns the other four, as Cilk-5 does. The size is not a power of two,
// so blocks are uneven. Checked against a serial Doolittle factorization
// (every entry within 1e-9) and by rebuilding A from L * U. The Schur
// update spawns in a loop over the quadrants, and its three Block arguments
// do not all fit in registers: they are passed in memory (byval), so each
// spawn must copy them before a thief runs the next iteration.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 200 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 150
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 70
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 70
// CHECK: lu n=200 factors ok product ok
#include <cilk/cilk.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// A block of a row-major matrix.
struct Block {
  double *p;
  long ld;
  double &operator()(long i, long j) const { return p[i * ld + j]; }
  Block at(long i, long j) const { return {&(*this)(i, j), ld}; }
};

enum { BS = 16 };

// C (m x p) -= A (m x k) * B (k x p).
static void schur(long m, long p, long k, Block c, Block a, Block b) {
  if (m == 0 || p == 0 || k == 0)
    return;
  if (m <= BS && p <= BS && k <= BS) {
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < p; ++j) {
        double sum = 0;
        for (long l = 0; l < k; ++l)
          sum += a(i, l) * b(l, j);
        c(i, j) -= sum;
      }
    return;
  }
  // Halve every dimension larger than a block (an unsplit dimension leaves
  // an empty second half). The halves of k are two phases; the four blocks
  // of C within a phase are independent.
  long m0 = m > BS ? m / 2 : m, p0 = p > BS ? p / 2 : p, k0 = k > BS ? k / 2 : k;
  long ms[2] = {m0, m - m0}, ps[2] = {p0, p - p0}, ks[2] = {k0, k - k0};
  for (int h = 0; h < 2; ++h) {
    long kh = h ? k0 : 0;
    for (int q = 0; q < 4; ++q) {
      int i = q / 2, j = q % 2;
      long ci = i ? m0 : 0, cj = j ? p0 : 0;
      cilk_spawn schur(ms[i], ps[j], ks[h], c.at(ci, cj), a.at(ci, kh), b.at(kh, cj));
    }
    cilk_sync;
  }
}

// B (n x m) <- L^-1 B, L the unit lower triangle of an n x n block.
static void lower_solve(long n, long m, Block l, Block b) {
  if (n <= BS && m <= BS) {
    for (long j = 0; j < m; ++j)
      for (long i = 0; i < n; ++i)
        for (long k = 0; k < i; ++k)
          b(i, j) -= l(i, k) * b(k, j);
    return;
  }
  if (m > BS && m >= n) {
    long h = m / 2;
    cilk_spawn lower_solve(n, h, l, b);
    lower_solve(n, m - h, l, b.at(0, h));
    cilk_sync;
    return;
  }
  long h = n / 2;
  lower_solve(h, m, l, b);
  schur(n - h, m, h, b.at(h, 0), l.at(h, 0), b);
  lower_solve(n - h, m, l.at(h, h), b.at(h, 0));
}

// B (m x n) <- B U^-1, U the upper triangle of an n x n block.
static void upper_solve(long m, long n, Block u, Block b) {
  if (n <= BS && m <= BS) {
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j) {
        for (long k = 0; k < j; ++k)
          b(i, j) -= b(i, k) * u(k, j);
        b(i, j) /= u(j, j);
      }
    return;
  }
  if (m > BS && m >= n) {
    long h = m / 2;
    cilk_spawn upper_solve(h, n, u, b);
    upper_solve(m - h, n, u, b.at(h, 0));
    cilk_sync;
    return;
  }
  long h = n / 2;
  upper_solve(m, h, u, b);
  schur(m, n - h, h, b.at(0, h), b, u.at(0, h));
  upper_solve(m, n - h, u.at(h, h), b.at(0, h));
}

static void lu(long n, Block a) {
  if (n <= BS) {
    for (long k = 0; k < n; ++k)
      for (long i = k + 1; i < n; ++i) {
        a(i, k) /= a(k, k);
        for (long j = k + 1; j < n; ++j)
          a(i, j) -= a(i, k) * a(k, j);
      }
    return;
  }
  long h = n / 2;
  lu(h, a);
  cilk_spawn lower_solve(h, n - h, a, a.at(0, h));
  upper_solve(n - h, h, a, a.at(h, 0));
  cilk_sync;
  schur(n - h, n - h, h, a.at(h, h), a.at(h, 0), a.at(0, h));
  lu(n - h, a.at(h, h));
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 100;
  if (n < 1 || n > 2000) {
    std::fprintf(stderr, "usage: lu [1..2000]\n");
    return 2;
  }
  std::vector<double> a(n * n);
  uint64_t state = 31337;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      a[i * n + j] = static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1;
      if (i == j)
        a[i * n + j] += static_cast<double>(n);
    }
  std::vector<double> f = a, ref = a;
  lu(n, Block{f.data(), n});

  // Serial Doolittle, right-looking.
  for (long k = 0; k < n; ++k)
    for (long i = k + 1; i < n; ++i) {
      ref[i * n + k] /= ref[k * n + k];
      for (long j = k + 1; j < n; ++j)
        ref[i * n + j] -= ref[i * n + k] * ref[k * n + j];
    }
  bool factors_ok = true;
  for (long i = 0; i < n * n; ++i)
    factors_ok &= std::fabs(f[i] - ref[i]) <= 1e-9;

  // (L U)_ij = sum_{k <= min(i, j)} L_ik U_kj, with L_ii = 1.
  bool product_ok = true;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double sum = 0;
      for (long k = 0; k <= i && k <= j; ++k)
        sum += (k == i ? 1.0 : f[i * n + k]) * f[k * n + j];
      product_ok &= std::fabs(sum - a[i * n + j]) <= 1e-9 * static_cast<double>(n);
    }
  std::printf("lu n=%ld factors %s product %s\n", n, factors_ok ? "ok" : "WRONG",
              product_ok ? "ok" : "WRONG");
  return factors_ok && product_ok ? 0 : 1;
}
