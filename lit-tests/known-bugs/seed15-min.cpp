// Weft bug (found by lit-tests/random/gen_forkjoin.py, seed 15): a spawned
// call returning a small struct (returned in registers) into a new variable;
// after the sync the variable is passed by value to a function. When the
// continuation was stolen, the callee sees {0, 0} instead of the child's
// result. Reading the fields directly (p.lo * 10 + p.hi) works. Happens at
// -O0, -O1 and -O2.
//
//   clang++-19 -I/work/main/include -O2 seed15-min.cpp -o ser && ./ser   # 68 79 / bad 0
//   /work/main/build/bin/weft-clang++ -O2 seed15-min.cpp -o weft
//   WEFT_NWORKERS=2 WEFT_STRESS=1 ./weft    # prints "68 0" and "bad 1000" (or similar)
#include <cilk/cilk.h>
#include <cstdio>
struct Pair { long lo, hi; };
static long hpair(Pair p) { return p.lo * 10 + p.hi; }
Pair make(long n) { return Pair{n + 5, n + 7}; }
long f(long n) {
  Pair p = cilk_spawn make(n);
  cilk_sync;
  return hpair(p);
}
int main() {
  long a = cilk_spawn f(1);
  long b = f(2);
  cilk_sync;
  printf("%ld %ld\n", a, b);
  long bad = 0;
  for (long i = 0; i < 1000; ++i)
    if (f(i) != (i + 5) * 10 + i + 7)
      ++bad;
  printf("bad %ld\n", bad);
  return 0;
}
