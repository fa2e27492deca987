// The rounds as one `#pragma omp parallel for` per round (built with
// clang's libomp and with gcc's libgomp), default (static) schedule: each
// round opens and closes its own parallel region, as a program written
// loop by loop does, rather than sharing one region across the rounds.
#include "../common/bench.h"
#include "rounds.h"

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
#pragma omp parallel for
          for (long i = 0; i < n; ++i)
            next[i] = rounds::element(prev, n, i, r);
          std::swap(prev, next);
        }
        return pr;
      },
      [](rounds::Problem *pr) { return rounds::digest(*pr); });
}
