// Stack use per spawning frame. The chain from the brief at depth 50000:
//   clang++-19 -I/work/main/include -O0 stack_per_level.cpp -o s0 && ./s0 50000        -> 1250025000
//   weft-clang++ -O0 stack_per_level.cpp -o w0 && WEFT_NWORKERS=1 ./w0 50000           -> SIGSEGV (stack overflow)
//   weft-clang++ -O1 -fsanitize=address ... && WEFT_NWORKERS=1 ./wa 50000              -> ASan stack-overflow
//   weft-clang++ -O2 ... && WEFT_NWORKERS=1 ./w2 50000 -> fine (128 B/level), but the
//   loop variant (second argument 1) overflows at 50000 (193 B/level):
//   WEFT_NWORKERS=1 ./w2 50000 1                                                        -> SIGSEGV
// Measured maximum depth on the 8 MiB main stack (bytes per level):
//                chain            loop_chain
//   serial -O2   >599000 (13)     174000 (48)
//   serial -O0   174000 (48)      104000 (80)
//   weft -O2      65000 (128)      43000 (193)
//   weft -O0      26000 (320)      14700 (568)
//   weft ASan     32500 (257)      26000 (320)
// A fast clone keeps its whole coroutine frame (all locals live across a
// spawn plus the Weft frame header) in its own stack frame, in addition to
// its ordinary spill slots; -O0 frames are ~272 bytes for chain().
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>
long chain(long n) {
  if (n == 0)
    return 0;
  long x = cilk_spawn chain(n - 1);
  long y = n;
  cilk_sync;
  return x + y;
}
__attribute__((noinline)) static long leaf(long n, long i) { return (n * 31 + i * 7) % 1009; }
long loop_chain(long n) {
  if (n == 0)
    return 1;
  long r[3];
  for (long i = 0; i < 3; ++i) {
    if (i == 0)
      r[i] = cilk_spawn loop_chain(n - 1);
    else
      r[i] = cilk_spawn leaf(n, i);
  }
  cilk_sync;
  return (r[0] * 3 + r[1] * 5 + r[2] * 7 + n) % 1000000007;
}
int main(int argc, char **argv) {
  long d = argc > 1 ? std::atol(argv[1]) : 50000;
  if (argc > 2 && std::atoi(argv[2]) == 1)
    std::printf("%ld\n", loop_chain(d));
  else
    std::printf("%ld\n", chain(d));
}
