// The rounds as one oneTBB parallel_for over a blocked_range per round,
// default (auto) partitioner.
#include "../common/bench.h"
#include "rounds.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

int main(int argc, char **argv) {
  long r = bench::arg(argc, argv, 1, rounds::DefaultRounds);
  long n = bench::arg(argc, argv, 2, rounds::DefaultN);
  rounds::Problem pr = rounds::make(r, n);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            bench::threads());
  rounds::Problem *in = &pr;
  bench::run(
      in,
      [](rounds::Problem *pr) {
        long n = pr->n;
        double *prev = pr->a.data(), *next = pr->b.data();
        for (long r = 0; r < pr->rounds; ++r) {
          tbb::parallel_for(tbb::blocked_range<long>(0, n),
                            [=](const tbb::blocked_range<long> &range) {
                              for (long i = range.begin(); i != range.end(); ++i)
                                next[i] = rounds::element(prev, n, i, r);
                            });
          std::swap(prev, next);
        }
        return pr;
      },
      [](rounds::Problem *pr) { return rounds::digest(*pr); });
}
