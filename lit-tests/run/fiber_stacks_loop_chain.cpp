// Every level spawns two leaves and then the next level, in a loop. Under
// steals, each stolen level parks the victim's stack until the chain below
// it completes, so the number of 8 MiB fiber stacks grows with the depth
// (not with P) until mmap fails.
//   clang++-19 -I/work/main/include -O2 fiber_stacks_loop_chain.cpp -o s
//   /work/main/build/bin/weft-clang++ -O2 fiber_stacks_loop_chain.cpp -o w
//   WEFT_NWORKERS=4 WEFT_STRESS=1 WEFT_STATS=1 ./w 20000
//     -> 573264719, and weft-stats stacks=5000..20000 (the serial needs one stack)
//   (ulimit -v 4000000; ./s 20000)                                 -> 573264719
//   (ulimit -v 4000000; WEFT_NWORKERS=4 WEFT_STRESS=1 ./w 20000)
//     -> "weft: cannot map a 8392704-byte fiber stack", abort (6 of 6 runs);
//        the same limit is fine for a plain spawn chain (stacks=4).
//   Without a limit, at depth 30000-50000 and P=2 or 4 under stress,
//   stacks reach 22000-27600, and lit-tests/run/deep_recursion.cpp at depth
//   50000 aborted with "cannot map" at P=2 (vm.max_map_count = 65530).
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
