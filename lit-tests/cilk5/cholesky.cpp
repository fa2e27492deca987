// Dense recursive Cholesky factorization A = L L^T of a symmetric positive
// definite matrix, in place in the lower triangle of a column-major array
// (Cilk-5's cholesky works on sparse quadtrees; this is the dense
// recursive-block variant of the same algorithm). chol factors the
// top-left block, solves for the block below it (trsm), subtracts its
// outer product from the bottom-right block (syrk), and recurses there.
// trsm splits its rows into independent halves; syrk spawns the two
// diagonal blocks and the off-diagonal product at once; the product
// C -= A B^T splits the larger of its output dimensions in parallel and the
// inner one in sequence. Some spawns are of immediately invoked lambdas
// capturing the parent's locals by reference, as OpenCilk code often does.
// Checked against a serial Cholesky-Banachiewicz factorization (every entry
// within 1e-9) and by rebuilding A from L L^T.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 180 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 150
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 60
// CHECK: cholesky n=180 factor ok product ok
#include <cilk/cilk.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// A block of a column-major matrix.
struct Mat {
  double *p;
  long ld;
  double &operator()(long i, long j) const { return p[i + j * ld]; }
  Mat at(long i, long j) const { return {&(*this)(i, j), ld}; }
};

enum { BS = 8 };

// C (m x p) -= A (m x k) * B^T, B being p x k.
static void gemm_nt(long m, long p, long k, Mat c, Mat a, Mat b) {
  if (m <= BS && p <= BS && k <= BS) {
    for (long j = 0; j < p; ++j)
      for (long i = 0; i < m; ++i) {
        double sum = 0;
        for (long l = 0; l < k; ++l)
          sum += a(i, l) * b(j, l);
        c(i, j) -= sum;
      }
    return;
  }
  if (m >= p && m >= k) {
    long h = m / 2;
    cilk_spawn [&] { gemm_nt(h, p, k, c, a, b); }();
    gemm_nt(m - h, p, k, c.at(h, 0), a.at(h, 0), b);
    cilk_sync;
  } else if (p >= k) {
    long h = p / 2;
    cilk_spawn [&] { gemm_nt(m, h, k, c, a, b); }();
    gemm_nt(m, p - h, k, c.at(0, h), a, b.at(h, 0));
    cilk_sync;
  } else {
    // Both halves of k update all of C: one after the other.
    long h = k / 2;
    gemm_nt(m, p, h, c, a, b);
    gemm_nt(m, p, k - h, c, a.at(0, h), b.at(0, h));
  }
}

// B (m x n) <- B L^-T, L the lower triangle of an n x n block.
static void trsm(long m, long n, Mat l, Mat b) {
  if (m > BS && m >= n) {
    long h = m / 2;
    cilk_spawn trsm(h, n, l, b);
    trsm(m - h, n, l, b.at(h, 0));
    cilk_sync;
    return;
  }
  if (n <= BS) {
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < m; ++i) {
        double x = b(i, j);
        for (long k = 0; k < j; ++k)
          x -= b(i, k) * l(j, k);
        b(i, j) = x / l(j, j);
      }
    return;
  }
  long h = n / 2;
  trsm(m, h, l, b);
  gemm_nt(m, n - h, h, b.at(0, h), b, l.at(h, 0));
  trsm(m, n - h, l.at(h, h), b.at(0, h));
}

// Lower triangle of C (n x n) -= A A^T, A being n x k.
static void syrk(long n, long k, Mat c, Mat a) {
  if (n <= BS) {
    for (long j = 0; j < n; ++j)
      for (long i = j; i < n; ++i) {
        double sum = 0;
        for (long l = 0; l < k; ++l)
          sum += a(i, l) * a(j, l);
        c(i, j) -= sum;
      }
    return;
  }
  long h = n / 2;
  cilk_spawn syrk(h, k, c, a);
  cilk_spawn [&] { gemm_nt(n - h, h, k, c.at(h, 0), a.at(h, 0), a); }();
  syrk(n - h, k, c.at(h, h), a.at(h, 0));
  cilk_sync;
}

static void chol(long n, Mat a) {
  if (n <= BS) {
    for (long j = 0; j < n; ++j) {
      double d = a(j, j);
      for (long k = 0; k < j; ++k)
        d -= a(j, k) * a(j, k);
      a(j, j) = std::sqrt(d);
      for (long i = j + 1; i < n; ++i) {
        double x = a(i, j);
        for (long k = 0; k < j; ++k)
          x -= a(i, k) * a(j, k);
        a(i, j) = x / a(j, j);
      }
    }
    return;
  }
  long h = n / 2;
  chol(h, a);
  trsm(n - h, h, a, a.at(h, 0));
  syrk(n - h, h, a.at(h, h), a.at(h, 0));
  chol(n - h, a.at(h, h));
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 100;
  if (n < 1 || n > 2000) {
    std::fprintf(stderr, "usage: cholesky [1..2000]\n");
    return 2;
  }
  // A = M M^T + n I: symmetric positive definite.
  std::vector<double> m(n * n), a(n * n);
  uint64_t state = 5;
  for (double &x : m) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1;
  }
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double sum = i == j ? static_cast<double>(n) : 0;
      for (long k = 0; k < n; ++k)
        sum += m[i + k * n] * m[j + k * n];
      a[i + j * n] = sum;
    }
  std::vector<double> f = a;
  chol(n, Mat{f.data(), n});

  // Serial reference, row by row.
  std::vector<double> ref(n * n, 0);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j <= i; ++j) {
      double sum = a[i + j * n];
      for (long k = 0; k < j; ++k)
        sum -= ref[i + k * n] * ref[j + k * n];
      ref[i + j * n] = i == j ? std::sqrt(sum) : sum / ref[j + j * n];
    }
  bool factor_ok = true, product_ok = true;
  for (long j = 0; j < n; ++j)
    for (long i = j; i < n; ++i) {
      factor_ok &= std::fabs(f[i + j * n] - ref[i + j * n]) <= 1e-9;
      double sum = 0;
      for (long k = 0; k <= j; ++k)
        sum += f[i + k * n] * f[j + k * n];
      product_ok &= std::fabs(sum - a[i + j * n]) <= 1e-9 * static_cast<double>(n);
    }
  std::printf("cholesky n=%ld factor %s product %s\n", n, factor_ok ? "ok" : "WRONG",
              product_ok ? "ok" : "WRONG");
  return factor_ok && product_ok ? 0 : 1;
}
