// Weft bug (found by lit-tests/random/gen_forkjoin.py, seed 12; same root
// cause as seed7-min.cpp): two spawned children in one try block both throw.
// When the continuation after the first spawn is stolen, the second child's
// exception (its own continuation not stolen) goes straight to the catch
// handler without a sync; the first child's exception, recorded in the frame,
// is rethrown later by the implicit sync at return, outside the try block ->
// std::terminate. OpenCilk syncs before entering the catch block, and the
// serial elision prints 499500. In the generated program (seed 12, a
// std::string-returning function with this pattern) it showed up as
// "free(): invalid pointer" / "munmap_chunk(): invalid pointer" / SIGSEGV.
//
//   clang++-19 -I/work/main/include -O2 seed12-min.cpp -o ser && ./ser   # 499500
//   /work/main/build/bin/weft-clang++ -O2 seed12-min.cpp -o weft
//   WEFT_NWORKERS=4 WEFT_STRESS=1 ./weft   # terminate called after throwing an instance of 'Boom'
#include <cilk/cilk.h>
#include <cstdio>
struct Boom { long code; };
static long tleaf(long a) { throw Boom{a}; }
long f(long n) {
  try {
    long x = cilk_spawn tleaf(n);
    long y = cilk_spawn tleaf(n + 1);
    cilk_sync;
  } catch (const Boom &) {
  }
  return n;
}
int main() {
  long t = 0;
  for (long i = 0; i < 1000; ++i)
    t += f(i);
  printf("%ld\n", t);
}
