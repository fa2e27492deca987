// Verify that nested spawns go at least as deep as the serial elision can:
// a chain whose every level spawns the next level and syncs, and chains
// whose every level spawns in a loop, the recursive spawn first in the loop
// or last (after two leaf spawns), so thieves steal continuations deep in
// the chain that spawn more. The depths come from the command line (chain,
// loop with recursion first, loop with recursion last).
//
// A fast clone carries its coroutine frame in its stack frame, so it takes
// 2.5 to 10 times the serial elision's stack per level; the plugin runs
// main on a stack 16 times the serial program's (runtime/main_stack.h).
// Deepest run on the 8 MiB stack limit, WEFT_NWORKERS=1 (bytes per level):
//                   chain               loop (recursion first)
//   serial -O0      172,000 (48)        104,000 (80)
//   serial -O2      unbounded (a loop)  258,000 (32)
//   serial ASan     unbounded (a loop)  129,000 (64)
//   weft -O0        415,000 (320)       309,000 (568)
//   weft -O2      1,047,000 (128)       758,000 (193)
//   weft ASan       516,000 (257)       379,000 (320)
// Before, Weft ran on main's own 8 MiB: 26,000 / 14,700 deep at -O0.
// Where clang turns the serial recursion into a loop, no spawning version
// (every level a frame, as in OpenCilk) can match it.
//
// The serial elision at -O0 reaches the first depths; the references for
// the deeper runs are the same sums computed by loops (-DITERATIVE).
// RUN: %clangxx -O0 %s -o %t.serial0
// RUN: %clangxx -O2 -DITERATIVE %s -o %t.reference
// RUN: %t.serial0 100000 60000 60000 > %t.serial0.out
// RUN: %t.reference 100000 60000 60000 | diff %t.serial0.out -
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial0 100000 60000 60000
// RUN: %run-check %t.o0 %t.reference 300000 150000 150000
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.reference 600000 400000 400000
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.reference 300000 200000 200000
// WEFT_MAIN_STACK_KB sets that stack: at 1 MiB, 20000 levels overflow it.
// RUN: not --crash env WEFT_NWORKERS=1 WEFT_MAIN_STACK_KB=1024 %t.o0 20000 1 1
//
// The number of fiber stacks does not limit the depth either: with the
// recursive spawn last in the loop, each level stolen parks the stack below
// it until the chain unwinds, which once took 27601 stacks at depth 30000
// (P=2, stress) and aborted at 50000 ("cannot map"); the bound on stacks
// (WEFT_MAX_STACKS; fiber_stacks_*.cpp) makes thieves wait instead.
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>

// The chain from the brief: every level is a spawn of the next.
long chain(long n) {
  if (n == 0)
    return 0;
  long x = cilk_spawn chain(n - 1);
  long y = n;
  cilk_sync;
  return x + y;
}

// Leaves: cheap, but with a result that depends on the level.
__attribute__((noinline)) static long leaf(long n, long i) { return (n * 31 + i * 7) % 1009; }

// Every level spawns three calls in a loop; `first` chooses whether the
// recursive one is the first spawn (the continuation, with two leaf spawns
// left, is what a thief takes) or the last (two leaves are already out when
// the recursion starts).
long loop_chain(long n, bool first) {
  if (n == 0)
    return 1;
  long r[3];
  for (long i = 0; i < 3; ++i) {
    bool recurse = first ? i == 0 : i == 2;
    if (recurse)
      r[i] = cilk_spawn loop_chain(n - 1, first);
    else
      r[i] = cilk_spawn leaf(n, i);
  }
  cilk_sync;
  return (r[0] * 3 + r[1] * 5 + r[2] * 7 + n) % 1000000007;
}

// The same sums by loops, for depths the serial recursion cannot reach.
long chain_by_loop(long n) { return n * (n + 1) / 2; }

long loop_chain_by_loop(long n, bool first) {
  long value = 1;
  for (long level = 1; level <= n; ++level) {
    long r[3];
    for (long i = 0; i < 3; ++i) {
      bool recurse = first ? i == 0 : i == 2;
      r[i] = recurse ? value : leaf(level, i);
    }
    value = (r[0] * 3 + r[1] * 5 + r[2] * 7 + level) % 1000000007;
  }
  return value;
}

#ifdef ITERATIVE
#define chain chain_by_loop
#define loop_chain loop_chain_by_loop
#endif

int main(int argc, char **argv) {
  long depth = argc > 1 ? std::atol(argv[1]) : 50000;
  long first_depth = argc > 2 ? std::atol(argv[2]) : depth;
  long last_depth = argc > 3 ? std::atol(argv[3]) : depth;
  std::printf("chain(%ld) = %ld\n", depth, chain(depth));
  std::printf("loop_chain(%ld, first) = %ld\n", first_depth, loop_chain(first_depth, true));
  std::printf("loop_chain(%ld, last) = %ld\n", last_depth, loop_chain(last_depth, false));
  return 0;
}
