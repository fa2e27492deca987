// A header a build forces into every source with -include (or precompiles):
// it spawns and runs a cilk_for itself, and defines a macro-wrapped loop
// with a grain for the source to use.
#include <cilk/cilk.h>

#include <cstdio>

#define forced_parallel_for_1 _Pragma("cilk grainsize = 1") cilk_for

static long forcedSquares(long N) {
  long Sum = 0;
  cilk_for (long I = 0; I < N; ++I)
    __atomic_fetch_add(&Sum, I * I, __ATOMIC_RELAXED);
  return Sum;
}

template <typename T> T forcedFib(T N) {
  if (N < 2)
    return N;
  T X = cilk_spawn forcedFib(N - 1);
  T Y = forcedFib(N - 2);
  cilk_sync;
  return X + Y;
}
