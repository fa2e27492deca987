#include <cilk/cilk.h>
static long squares(long N) {
  long Sum = 0;
#pragma cilk grainsize 4
  cilk_for (long I = 0; I < N; ++I)
    __atomic_fetch_add(&Sum, I * I, __ATOMIC_RELAXED);
  return Sum;
}
