// Verify that fiber stacks stay bounded on a chain of ordinary recursive
// calls, each level spawning a leaf first:
//   long a = cilk_spawn leaf(n); long b = chain(n - 1); cilk_sync;
// The first steal of each level's continuation parks the stack below it
// (its caller waits there for chain's result) until the chain unwinds, so
// unbounded, the stacks in use grew with the steals, not with P: 15000 at
// depth 20000 (P=4, forced steals), 63 MB resident, and under the serial
// program's 4 GB address-space limit (ulimit -v 4000000) mapping one
// failed ("weft: cannot map a 8392704-byte fiber stack") and the program
// aborted. Thieves now wait when a steal could need a stack beyond
// WEFT_MAX_STACKS (default 16 per worker: 64 at P=4), so the depth only
// limits parallelism. The serial elision needs 1 MiB of stack at 50000.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 20000
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 10000
// At the depth that aborted, under the limit the serial program runs in:
// RUN: %t.serial 20000 > %t.expected
// RUN: bash -c 'ulimit -v 4000000 && %t.serial 20000' | diff %t.expected -
// RUN: bash -c 'ulimit -v 4000000 && WEFT_NWORKERS=4 WEFT_STRESS=1 WEFT_STATS=1 %t.o2 20000 2> %t.stats' | diff %t.expected -
// RUN: %stack-bound %t.stats 64
// A bound set by hand, and the deepest chain:
// RUN: %t.serial 50000 > %t.expected50k
// RUN: env WEFT_NWORKERS=4 WEFT_STRESS=1 WEFT_STATS=1 WEFT_MAX_STACKS=6 %t.o2 50000 2> %t.stats6 | diff %t.expected50k -
// RUN: %stack-bound %t.stats6 6
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>
__attribute__((noinline)) long leaf(long n) { return n % 7; }
long chain(long n) {
  if (n == 0)
    return 0;
  long a = cilk_spawn leaf(n);
  long b = chain(n - 1);
  cilk_sync;
  return a + b;
}
int main(int argc, char **argv) {
  std::printf("%ld\n", chain(argc > 1 ? std::atol(argv[1]) : 50000));
}
