// Verify that a Monte Carlo estimate of pi drawn in a cilk_for prints the
// same digits at every worker count, with and without forced steals,
// whether the numbers come from __cilkrts_get_dprand() or from a DotMix of
// the program's own that walks __cilkrts_get_pedigree()'s parent chain (as
// Intel's cilkpub DotMix does); and that the estimate is close to pi.
//
// RUN: %weftcxx -fopencilk -O2 %s -o %t -lopencilk-pedigrees
// RUN: %same-at-every-p %t 300000 | FileCheck %s
// RUN: %weftcxx --weft-pedigrees -O3 -DGRAIN=1 %s -o %t.grain1
// RUN: %same-at-every-p %t.grain1 30000 | FileCheck %s
// CHECK: dprand pi 3.1{{[0-9]+}}
// CHECK: walker pi 3.1{{[0-9]+}}
// CHECK: close 1 1

#include <cilk/cilk.h>
#include <cilk/cilk_api.h>
#include <cilk/opadd_reducer.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

/// A DotMix of the pedigree's terms from leaf to root, with a table of its
/// own: what a library on top of the pedigree API computes.
struct Walker {
  uint64_t table[64];
  explicit Walker(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t &t : table) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      t = x | 1;
    }
  }
  uint64_t get() {
    __cilkrts_bump_worker_rank();
    __cilkrts_pedigree leaf = __cilkrts_get_pedigree();
    uint64_t sum = leaf.rank * table[0];
    int j = 1;
    for (const __cilkrts_pedigree *p = leaf.parent; p; p = p->parent, ++j)
      sum += (p->rank + 1) * table[j % 64];
    sum ^= sum >> 29;
    sum *= 0xbf58476d1ce4e5b9ull;
    return sum ^ (sum >> 32);
  }
};

double unit(uint64_t r) { return double(r >> 11) * 0x1.0p-53; }

template <typename Draw> double estimate(long n, Draw draw) {
  cilk::opadd_reducer<long> inside = 0;
#if defined(GRAIN)
#pragma cilk grainsize GRAIN
#endif
  cilk_for (long i = 0; i < n; ++i) {
    double x = unit(draw()), y = unit(draw());
    if (x * x + y * y <= 1.0)
      inside += 1;
  }
  return 4.0 * double(inside) / double(n);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  __cilkrts_dprand_set_seed(2026);
  double a = estimate(n, [] { return __cilkrts_get_dprand(); });
  Walker walker(2026);
  double b = estimate(n, [&walker] { return walker.get(); });
  std::printf("dprand pi %.10f\nwalker pi %.10f\n", a, b);
  std::printf("close %d %d\n", std::fabs(a - M_PI) < 0.02,
              std::fabs(b - M_PI) < 0.02);
}
