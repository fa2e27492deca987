// matmul, shared by every variant: the input, the base-case kernel, the
// cutoff, and the checks. The recursion itself is in each variant's file,
// written the same way for every runtime.
#ifndef WEFT_BENCH_MATMUL_H
#define WEFT_BENCH_MATMUL_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace matmul {

/// The matrix side when none is given.
constexpr long DefaultN = 1024;

/// The leaves are Base x Base x Base block products: 32K multiply-adds
/// (microseconds), on three blocks (24 KiB) that fit in a typical 32 KiB L1
/// data cache. n must be a multiple of Base, and the recursion splits in
/// whole blocks, so that every leaf is a full block.
constexpr long Base = 32;

/// Where a dimension of d elements (a multiple of Base, more than Base) is
/// split: half of its blocks, rounded down.
inline long half(long d) { return d / (2 * Base) * Base; }

/// Sampled entries of C checked against a dot product.
constexpr int Samples = 64;

/// A block inside a larger row-major matrix: element (i, j) is p[i * ld + j].
struct Block {
  double *p;
  long ld;
  double *at(long i, long j) const { return p + i * ld + j; }
};

/// The problem: C = A * B, n x n. C starts at zero; the recursion adds into it.
struct Problem {
  long n;
  std::vector<double> a, b, c;
};

/// A and B get pseudo-random entries in [-1, 1), the same for every variant.
inline Problem make(long n) {
  Problem pr{n, std::vector<double>(n * n), std::vector<double>(n * n),
             std::vector<double>(n * n, 0.0)};
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1p-52 - 1.0;
  };
  for (double &x : pr.a)
    x = next();
  for (double &x : pr.b)
    x = next();
  return pr;
}

/// C += A * B on Base x Base blocks. The loop order i, k, j keeps the inner
/// loop on rows of B and C, so that it vectorizes without reordering any sum:
/// every entry of C adds its products in increasing k, the order the
/// recursion also keeps. The constant trip count and the restrict pointers
/// (C never overlaps A or B) are what g++ -O2 needs to vectorize the inner
/// loop too: with a variable count or possible aliasing its cheap cost model
/// keeps it scalar, and the g++ build would time a different kernel.
inline void base(Block a, Block b, Block c) {
  for (long i = 0; i < Base; ++i) {
    double *__restrict ci = c.at(i, 0);
    for (long l = 0; l < Base; ++l) {
      double ail = *a.at(i, l);
      const double *__restrict bl = b.at(l, 0);
      for (long j = 0; j < Base; ++j)
        ci[j] += ail * bl[j];
    }
  }
}

/// The checked value: a hash of C's bits. Each entry's sum is formed in the
/// same order (increasing k) by every variant, whatever the schedule, so the
/// hash must equal the serial elision's exactly.
inline long long digest(const Problem &pr) {
  uint64_t h = 14695981039346656037ull;
  for (double x : pr.c) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    h = (h ^ bits) * 1099511628211ull;
  }
  return static_cast<long long>(h >> 1);
}

/// Checks Samples pseudo-randomly chosen entries of C against a dot product
/// in double, relative to the sum of the products' magnitudes (the scale of
/// the rounding error of any summation order). Prints and returns false on
/// a mismatch.
inline bool check(const Problem &pr) {
  long n = pr.n;
  uint64_t state = 12345;
  for (int s = 0; s < Samples; ++s) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    long i = static_cast<long>((state >> 33) % n);
    long j = static_cast<long>((state >> 13) % n);
    double dot = 0, scale = 0;
    for (long l = 0; l < n; ++l) {
      dot += pr.a[i * n + l] * pr.b[l * n + j];
      scale += std::fabs(pr.a[i * n + l] * pr.b[l * n + j]);
    }
    double got = pr.c[i * n + j];
    if (std::fabs(got - dot) > 1e-9 * scale) {
      std::fprintf(stderr, "bench: WRONG C[%ld][%ld] = %.17g, expected %.17g\n", i, j, got, dot);
      return false;
    }
  }
  return true;
}

} // namespace matmul

#endif // WEFT_BENCH_MATMUL_H
