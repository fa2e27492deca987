// Weft bug (found by lit-tests/random/gen_forkjoin.py, seed 7): an exception
// thrown by the continuation inside a try block is caught locally while a
// spawned child of the same try block is still running; the child's own
// exception is then rethrown by a later (here: the implicit) sync, outside the
// try block, and escapes -> std::terminate. OpenCilk syncs before entering a
// catch block ("the compiler inserts an implicit sync at the end of a try
// block if the try contains a spawn"; the child's exception replaces the
// parent's), so the catch handles it. The serial elision prints -100.
//
//   clang++-19 -I/work/main/include -O2 seed7-min.cpp -o ser && ./ser      # -100
//   /work/main/build/bin/weft-clang++ -O2 seed7-min.cpp -o weft
//   WEFT_NWORKERS=2 WEFT_STRESS=1 ./weft   # terminate called after throwing an instance of 'Boom'
//   WEFT_NWORKERS=4 ./weft                 # same (also without stress)
//
// Also: until the child finishes it writes x, a variable of the try block
// whose scope the handler has already left.
#include <cilk/cilk.h>
#include <cstdio>
struct Boom { long code; };
static long thrower(long n) { if (n >= 0) throw Boom{n}; return n; }
long f(long n) {
  long r = 0;
  try {
    long x = cilk_spawn thrower(n);
    long y = thrower(n + 1); // the continuation throws too
    cilk_sync;
    r = x + y;
  } catch (const Boom &) {
    r = -1;
  }
  return r;
}
int main() {
  long t = 0;
  for (long i = 0; i < 100; ++i) t += f(i);
  printf("%ld\n", t);
}
