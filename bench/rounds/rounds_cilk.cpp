// The rounds as one cilk_for per round, default grain, in a serial loop
// over the rounds. Compiled with weft-clang++ this is the Weft variant;
// with plain clang++ it is the serial elision.
#include "../common/bench.h"
#include "rounds.h"

#include <cilk/cilk.h>

int main(int argc, char **argv) {
  long r = bench::arg(argc, argv, 1, rounds::DefaultRounds);
  long n = bench::arg(argc, argv, 2, rounds::DefaultN);
  rounds::Problem pr = rounds::make(r, n);
  rounds::Problem *in = &pr;
  bench::run(
      in,
      [](rounds::Problem *pr) {
        long n = pr->n;
        double *prev = pr->a.data(), *next = pr->b.data();
        for (long r = 0; r < pr->rounds; ++r) {
          cilk_for (long i = 0; i < n; ++i)
            next[i] = rounds::element(prev, n, i, r);
          std::swap(prev, next);
        }
        return pr;
      },
      [](rounds::Problem *pr) { return rounds::digest(*pr); });
}
