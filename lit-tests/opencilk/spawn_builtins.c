// Verify spawning compiler builtins, which have no function to call
// through a pointer: a builtin whose value initialises a variable or is
// assigned (`__builtin_sqrt`, `__builtin_popcountl`), a vector intrinsic
// whose last operand must be an immediate constant (`_mm_shuffle_epi32`,
// a macro over a builtin with a cast), and a builtin as a statement
// (`__builtin_memcpy`). Each runs as a function of its own that is
// spawned; its constant operands stay constants. Against the serial
// elision at 1, 2 and 4 workers, with and without forced steals, at -O2
// and -O0, in C and C++.
// RUN: %clang -O2 %s -o %t.serial
// RUN: %weftcc -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcc -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -x c++ -O2 %s -o %t.cxx
// RUN: %run-check %t.cxx %t.serial
// RUN: %t | FileCheck %s
// CHECK: 40 30 20 10 hello 1.414214 8 15
#include <cilk/cilk.h>
#include <emmintrin.h>
#include <stdio.h>

int main(void) {
  __m128i v = _mm_setr_epi32(10, 20, 30, 40);
  __m128i r = cilk_spawn _mm_shuffle_epi32(v, 0x1b); // reversed
  char a[16], b[16] = "hello";
  cilk_spawn __builtin_memcpy(a, b, 6);
  double root = cilk_spawn __builtin_sqrt(2.0);
  long bits = 0;
  bits = cilk_spawn __builtin_popcountl(255ul);
  int sum = cilk_spawn __builtin_popcount(0x7fffu) + 0;
  cilk_sync;
  int out[4];
  _mm_storeu_si128((__m128i *)out, r);
  printf("%d %d %d %d %s %f %ld %d\n", out[0], out[1], out[2], out[3], a, root,
         bits, sum);
  return 0;
}
