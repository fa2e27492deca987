// cilksort on oneTBB task_group: the same recursion as cilksort_cilk.cpp
// (four quarter sorts in parallel, two merges in parallel, a final merge;
// the merge splits by binary search and merges both sides in parallel), the
// same serial cutoffs.
#include "../common/bench.h"
#include "cilksort.h"

#include <tbb/global_control.h>
#include <tbb/task_group.h>
#include <utility>

using cilksort::Elm;

// Merges the sorted ranges [low1, high1) and [low2, high2) into dest.
static void cilkmerge(const Elm *low1, const Elm *high1, const Elm *low2, const Elm *high2,
                      Elm *dest) {
  if (high1 - low1 < high2 - low2) {
    std::swap(low1, low2);
    std::swap(high1, high2);
  }
  // [low1, high1) is now the larger range.
  if (high2 - low2 < cilksort::MergeSize) {
    cilksort::seqmerge(low1, high1, low2, high2, dest);
    return;
  }
  const Elm *split1 = low1 + (high1 - low1) / 2;
  const Elm *split2 = cilksort::binsplit(*split1, low2, high2);
  long lowsize = (split1 - low1) + (split2 - low2);
  dest[lowsize] = *split1;
  tbb::task_group g;
  g.run([=] { cilkmerge(low1, split1, low2, split2, dest); });
  cilkmerge(split1 + 1, high1, split2, high2, dest + lowsize + 1);
  g.wait();
}

// Sorts [low, low + size), with tmp[0, size) as scratch.
static void sort(Elm *low, Elm *tmp, long size) {
  if (size < cilksort::QuickSize) {
    cilksort::seqquick(low, size);
    return;
  }
  long quarter = size / 4;
  Elm *a = low, *ta = tmp;
  Elm *b = a + quarter, *tb = ta + quarter;
  Elm *c = b + quarter, *tc = tb + quarter;
  Elm *d = c + quarter, *td = tc + quarter;
  tbb::task_group g;
  g.run([=] { sort(a, ta, quarter); });
  g.run([=] { sort(b, tb, quarter); });
  g.run([=] { sort(c, tc, quarter); });
  sort(d, td, size - 3 * quarter);
  g.wait();
  g.run([=] { cilkmerge(a, b, b, c, ta); });
  cilkmerge(c, d, d, low + size, tc);
  g.wait();
  cilkmerge(ta, tc, tc, tmp + size, a);
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, cilksort::DefaultN);
  if (n < 1) {
    std::fprintf(stderr, "usage: %s [n >= 1]\n", argv[0]);
    return 2;
  }
  cilksort::Problem pr = cilksort::make(n);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, bench::threads());
  cilksort::Problem *in = &pr;
  bench::run(
      in,
      [](cilksort::Problem *pr) {
        sort(pr->data.data(), pr->tmp.data(), static_cast<long>(pr->data.size()));
        return pr;
      },
      [](cilksort::Problem *pr) { return cilksort::digest(*pr); });
  return cilksort::check(pr) ? 0 : 1;
}
