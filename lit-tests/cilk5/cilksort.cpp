// Cilk-5 cilksort: merge sort that sorts four quarters in parallel, merges
// them pairwise in parallel into a scratch array, and merges the two halves
// back. The merge is itself parallel: it splits the larger input at its
// middle element, finds the matching split of the smaller one by binary
// search, places the middle element, and spawns the two sub-merges. The
// children write disjoint parts of the parent's arrays through pointers.
// Checked element by element against std::sort on random keys, keys with
// many duplicates, and descending input, plus a position-weighted checksum.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 100000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 30000
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 10000
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 10000
// CHECK: cilksort random n=100000 ok
// CHECK: cilksort duplicates n=100000 ok
// CHECK: cilksort descending n=100000 ok
#include <algorithm>
#include <cilk/cilk.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

using Elm = long;

// Ranges below these sizes are sorted and merged serially, as in Cilk-5
// (smaller than its defaults so that small inputs still spawn a lot).
enum { QUICKSIZE = 128, MERGESIZE = 64 };

static void seqmerge(const Elm *low1, const Elm *high1, const Elm *low2, const Elm *high2,
                     Elm *dest) {
  while (low1 < high1 && low2 < high2)
    *dest++ = *low2 < *low1 ? *low2++ : *low1++;
  while (low1 < high1)
    *dest++ = *low1++;
  while (low2 < high2)
    *dest++ = *low2++;
}

// Merges the sorted ranges [low1, high1) and [low2, high2) into dest.
static void cilkmerge(const Elm *low1, const Elm *high1, const Elm *low2, const Elm *high2,
                      Elm *dest) {
  // Split the larger range in the middle.
  if (high1 - low1 < high2 - low2) {
    std::swap(low1, low2);
    std::swap(high1, high2);
  }
  if (high1 == low1)
    return;
  if (high2 - low2 < MERGESIZE) {
    seqmerge(low1, high1, low2, high2, dest);
    return;
  }
  const Elm *split1 = low1 + (high1 - low1) / 2;
  const Elm *split2 = std::lower_bound(low2, high2, *split1);
  long lowsize = (split1 - low1) + (split2 - low2);
  dest[lowsize] = *split1;
  cilk_spawn cilkmerge(low1, split1, low2, split2, dest);
  cilk_spawn cilkmerge(split1 + 1, high1, split2, high2, dest + lowsize + 1);
  cilk_sync;
}

// Sorts [low, low + size) using tmp[0, size) as scratch.
static void cilksort(Elm *low, Elm *tmp, long size) {
  if (size < QUICKSIZE) {
    std::sort(low, low + size);
    return;
  }
  long quarter = size / 4;
  Elm *a = low, *tmpa = tmp;
  Elm *b = a + quarter, *tmpb = tmpa + quarter;
  Elm *c = b + quarter, *tmpc = tmpb + quarter;
  Elm *d = c + quarter, *tmpd = tmpc + quarter;
  cilk_spawn cilksort(a, tmpa, quarter);
  cilk_spawn cilksort(b, tmpb, quarter);
  cilk_spawn cilksort(c, tmpc, quarter);
  cilk_spawn cilksort(d, tmpd, size - 3 * quarter);
  cilk_sync;
  cilk_spawn cilkmerge(a, a + quarter, b, b + quarter, tmpa);
  cilk_spawn cilkmerge(c, c + quarter, d, low + size, tmpc);
  cilk_sync;
  cilkmerge(tmpa, tmpc, tmpc, tmpa + size, a);
}

static bool check(const char *name, std::vector<Elm> data) {
  std::vector<Elm> expect = data;
  std::sort(expect.begin(), expect.end());
  std::vector<Elm> tmp(data.size());
  cilksort(data.data(), tmp.data(), static_cast<long>(data.size()));
  bool ok = data == expect;
  uint64_t checksum = 0;
  for (size_t i = 0; i < data.size(); ++i)
    checksum += (i + 1) * static_cast<uint64_t>(data[i]);
  std::printf("cilksort %s n=%zu %s checksum=%016llx\n", name, data.size(), ok ? "ok" : "WRONG",
              static_cast<unsigned long long>(checksum));
  return ok;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 10000;
  if (n < 1 || n > 10000000) {
    std::fprintf(stderr, "usage: cilksort [1..10000000]\n");
    return 2;
  }
  uint64_t state = 42;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<Elm>(state >> 24);
  };
  std::vector<Elm> random(n), duplicates(n), descending(n);
  for (long i = 0; i < n; ++i) {
    random[i] = next();
    duplicates[i] = next() % 7;
    descending[i] = n - i;
  }
  bool ok = check("random", random);
  ok &= check("duplicates", duplicates);
  ok &= check("descending", descending);
  return ok ? 0 : 1;
}
