// Verify that fiber stacks stay bounded on a chain whose every level
// spawns two leaves and then the next level, in a loop. A level stolen
// while a leaf runs parks the stack below it until the chain unwinds; one
// stolen while the rest of the chain runs parks only when the chain
// returns into it. Unbounded, the stacks in use grew with the depth, not
// with P: 9900 at depth 20000 (P=4, forced steals), and under the serial
// program's 4 GB address-space limit (ulimit -v 4000000) the program
// aborted with "weft: cannot map a 8392704-byte fiber stack" in 6 of 6
// runs. Thieves now wait when a steal could need a stack beyond
// WEFT_MAX_STACKS (default 16 per worker: 64 at P=4). Under that limit the
// fiber stacks are sized to fit it (config.cpp); the depth itself is
// run/deep_recursion.cpp's subject.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 20000
// At the depth that aborted, under the limit the serial program runs in:
// RUN: %t.serial 20000 > %t.expected
// RUN: bash -c 'ulimit -v 4000000 && %t.serial 20000' | diff %t.expected -
// RUN: bash -c 'ulimit -v 4000000 && WEFT_NWORKERS=4 WEFT_STRESS=1 WEFT_STATS=1 %t.o2 20000 2> %t.stats' | diff %t.expected -
// RUN: %stack-bound %t.stats 64
// With room for a single steal at a time (3 pool threads' stacks + 1):
// RUN: env WEFT_NWORKERS=4 WEFT_STRESS=1 WEFT_STATS=1 WEFT_MAX_STACKS=4 %t.o2 20000 2> %t.stats4 | diff %t.expected -
// RUN: %stack-bound %t.stats4 4
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>
__attribute__((noinline)) static long leaf(long n, long i) { return (n * 31 + i * 7) % 1009; }
long loop_chain(long n) {
  if (n == 0)
    return 1;
  long r[3];
  for (long i = 0; i < 3; ++i) {
    if (i == 2)
      r[i] = cilk_spawn loop_chain(n - 1);
    else
      r[i] = cilk_spawn leaf(n, i);
  }
  cilk_sync;
  return (r[0] * 3 + r[1] * 5 + r[2] * 7 + n) % 1000000007;
}
int main(int argc, char **argv) {
  std::printf("%ld\n", loop_chain(argc > 1 ? std::atol(argv[1]) : 50000));
}
