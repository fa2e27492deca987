// A Monte Carlo kernel: pi from n points of the unit square, each point's
// two coordinates drawn with __cilkrts_get_dprand() in a cilk_for, summed
// with a reducer. With pedigrees (bench/pedigrees.py builds it with
// --weft-pedigrees) the draws are the same at every worker count; the
// serial elision draws from the stand-ins' one strand. The checked value
// is the estimate to two decimals, which every variant agrees on.
#include "../common/bench.h"

#include <cilk/cilk.h>
#include <cilk/cilk_api.h>
#include <cilk/opadd_reducer.h>

namespace {

double unit(uint64_t r) { return double(r >> 11) * 0x1.0p-53; }

long inside(long n) {
  cilk::opadd_reducer<long> count = 0;
  cilk_for (long i = 0; i < n; ++i) {
    double x = unit(__cilkrts_get_dprand());
    double y = unit(__cilkrts_get_dprand());
    if (x * x + y * y <= 1.0)
      count += 1;
  }
  return count;
}

} // namespace

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, 4000000);
  __cilkrts_dprand_set_seed(2026);
  bench::run(n, inside, [n](long in) { return long(400.0 * in / n + 0.5); });
}
