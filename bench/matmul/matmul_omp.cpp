// matmul on OpenMP tasks (built with clang's libomp and with gcc's libgomp):
// the same recursion as matmul_cilk.cpp (halve the largest dimension; the m
// and p halves in parallel, the k halves one after the other), the same
// 32 x 32 x 32 leaves.
#include "../common/bench.h"
#include "matmul.h"

using matmul::Block;

// C (m x p) += A (m x k) * B (k x p); m, k and p are multiples of Base.
static void mm(long m, long k, long p, Block a, Block b, Block c) {
  if (m == matmul::Base && k == matmul::Base && p == matmul::Base) {
    matmul::base(a, b, c);
    return;
  }
  if (m >= k && m >= p) {
    long h = matmul::half(m);
#pragma omp task firstprivate(h, k, p, a, b, c)
    mm(h, k, p, a, b, c);
    mm(m - h, k, p, {a.at(h, 0), a.ld}, b, {c.at(h, 0), c.ld});
#pragma omp taskwait
  } else if (p >= k) {
    long h = matmul::half(p);
#pragma omp task firstprivate(m, k, h, a, b, c)
    mm(m, k, h, a, b, c);
    mm(m, k, p - h, a, {b.at(0, h), b.ld}, {c.at(0, h), c.ld});
#pragma omp taskwait
  } else {
    long h = matmul::half(k);
    mm(m, h, p, a, b, c);
    mm(m, k - h, p, {a.at(0, h), a.ld}, {b.at(h, 0), b.ld}, c);
  }
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, matmul::DefaultN);
  if (n < matmul::Base || n % matmul::Base != 0) {
    std::fprintf(stderr, "usage: %s [n, a multiple of %ld]\n", argv[0], matmul::Base);
    return 2;
  }
  matmul::Problem pr = matmul::make(n);
  matmul::Problem *in = &pr;
  bench::run(
      in,
      [](matmul::Problem *pr) {
        long n = pr->n;
#pragma omp parallel
#pragma omp single
        mm(n, n, n, {pr->a.data(), n}, {pr->b.data(), n}, {pr->c.data(), n});
        return pr;
      },
      [](matmul::Problem *pr) { return matmul::digest(*pr); });
  return matmul::check(pr) ? 0 : 1;
}
