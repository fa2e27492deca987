/* Verify spawned statements that name variable-length arrays of the
 * enclosing function: a parallel loop filling one, a block writing a
 * two-dimensional one whose inner dimension is constant, and `sizeof` of
 * both, which keeps the length each was declared with after the variable
 * that gave it changes. The statement's function gets the array's length
 * and a pointer to it. In C and as C++, against the serial elision at
 * P=1, 2, 4 with and without steals, and under AddressSanitizer.
 * RUN: %clang -O2 %s -o %t.serial -lm
 * RUN: %weftcc -O0 %s -o %t.o0 -lm
 * RUN: %run-check %t.o0 %t.serial
 * RUN: %weftcc -O2 %s -o %t.o2 -lm
 * RUN: %run-check %t.o2 %t.serial
 * RUN: %weftcxx -x c++ -O2 %s -o %t.cxx -lm
 * RUN: %run-check %t.cxx %t.serial
 * RUN: %weftcc -O1 -fsanitize=address %s -o %t.asan -lm
 * RUN: %run-check %t.asan %t.serial
 */
#include <cilk/cilk.h>
#include <math.h>
#include <stdio.h>

static double arrays(long n) {
  long x[n];
  double m[n][3];
  cilk_spawn {
    cilk_for (long i = 0; i < n; ++i)
      x[i] = (long)(100 * sin((double)i));
  }
  cilk_spawn {
    for (long i = 0; i < n; ++i)
      for (int j = 0; j < 3; ++j)
        m[i][j] = (double)(i * j);
  }
  long declared = n;
  n = 1; /* the arrays keep the length they were declared with */
  cilk_sync;
  long s = (long)(sizeof x / sizeof x[0]);
  cilk_spawn {
    s += (long)(sizeof x + sizeof m);
    x[declared - 1] += 1;
    m[declared - 1][1] *= 2;
  }
  cilk_sync;
  double t = 0;
  for (long i = 0; i < declared; ++i)
    t += (double)x[i] + m[i][1] + m[i][2];
  return t + (double)s;
}

/* One VLA per iteration of a loop that spawns a block using it. */
static long per_iteration(unsigned n) {
  long sums[8] = {0};
  for (unsigned k = 0; k < 8; ++k) {
    unsigned char data[n + k];
    cilk_spawn {
      for (unsigned i = 0; i < sizeof data; ++i)
        data[i] = (unsigned char)(k + i);
      for (unsigned i = 0; i < sizeof data; ++i)
        sums[k] += data[i];
    }
    cilk_sync; /* data dies with the iteration */
  }
  long t = 0;
  for (int k = 0; k < 8; ++k)
    t += sums[k] * (k + 1);
  return t;
}

int main(void) {
  double t = 0;
  for (long n = 1; n < 40; ++n)
    t += arrays(n);
  printf("%f %ld\n", t, per_iteration(399));
  return 0;
}
