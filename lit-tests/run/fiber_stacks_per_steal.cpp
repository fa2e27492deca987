// A chain of ordinary recursive calls, each level spawning a leaf first:
//   long a = cilk_spawn leaf(n); long b = chain(n - 1); cilk_sync;
// Every steal of a level's continuation parks the victim's stack, and that
// stack stays allocated until the chain unwinds, so the number of fiber
// stacks (8 MiB of address space each plus a guard page) grows with the
// number of steals, not with P. The serial elision needs 1 MiB of stack at
// depth 50000.
//   clang++-19 -I/work/main/include -O2 fiber_stacks_per_steal.cpp && ./a.out 50000  -> 150003
//   weft-clang++ -O2 fiber_stacks_per_steal.cpp -o w
//   WEFT_NWORKERS=4 WEFT_STRESS=1 WEFT_STATS=1 ./w 50000
//     -> 150003, but weft-stats shows stacks=10000..32000 (one per steal) and
//        up to 130 MB RSS; near vm.max_map_count (65530 = ~32k stacks with guards)
//   weft-clang++ -O0 ...; WEFT_NWORKERS=2 WEFT_STRESS=1 ./w 50000
//     -> "weft: cannot map a 8392704-byte fiber stack", abort (seen once here)
//   Deterministic: (ulimit -v 4000000; WEFT_NWORKERS=2 WEFT_STRESS=1 ./w 20000)
//     -> "weft: cannot map a 8392704-byte fiber stack", abort; the serial
//        binary runs fine under the same limit.
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
