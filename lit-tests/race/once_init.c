/* Verify that one-time initialisation orders its initialiser before every
 * caller that returns from it, as OpenCilk's detector has it: two
 * logically parallel children each call pthread_once, C11's call_once or
 * (in C++) std::call_once on one flag and then read what the initialiser
 * wrote, and no race is reported, neither on the table nor on the
 * thread-local bookkeeping of libstdc++'s call_once. A plain write to the
 * same table in a parallel strand still races with the reads (the last
 * part). In C and C++, at -O0 and -O2. (The build before this reported 4
 * races in C and 6 in C++.)
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 1 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 1 66 %t2cxx | FileCheck %s
 * CHECK: values 9 25 16 36 4 49
 * CHECK: race on {{.*}} between a {{read|write}} and a {{read|write}}
 * CHECK: races found: 1
 */
#include <cilk/cilk.h>
#include <pthread.h>
#include <stdio.h>
#include <threads.h>
#ifdef __cplusplus
#include <mutex>
#endif

static long squares[64], cubes[64], late[64];
static pthread_once_t squares_once = PTHREAD_ONCE_INIT;
static once_flag cubes_once = ONCE_FLAG_INIT;

static void fill_squares(void) {
  for (int i = 0; i < 64; ++i)
    squares[i] = (long)i * i;
}
static void fill_cubes(void) {
  for (int i = 0; i < 64; ++i)
    cubes[i] = (long)i * i * i;
}

__attribute__((noinline)) long square(int i) {
  pthread_once(&squares_once, fill_squares);
  return squares[i];
}
__attribute__((noinline)) long cube(int i) {
  call_once(&cubes_once, fill_cubes);
  return cubes[i] / i;
}

#ifdef __cplusplus
static std::once_flag late_once;
__attribute__((noinline)) long later(int i) {
  std::call_once(late_once, [] {
    for (int j = 0; j < 64; ++j)
      late[j] = (long)j * j;
  });
  return late[i];
}
#else
static pthread_once_t late_once = PTHREAD_ONCE_INIT;
static void fill_late(void) {
  for (int j = 0; j < 64; ++j)
    late[j] = (long)j * j;
}
__attribute__((noinline)) long later(int i) {
  pthread_once(&late_once, fill_late);
  return late[i];
}
#endif

__attribute__((noinline)) void overwrite(void) { squares[3] = 9; }

int main(void) {
  long a = cilk_spawn square(3);
  long b = square(5);
  cilk_sync;
  long c = cilk_spawn cube(4);
  long d = cube(6);
  cilk_sync;
  long e = cilk_spawn later(2);
  long f = later(7);
  cilk_sync;
  printf("values %ld %ld %ld %ld %ld %ld\n", a, b, c, d, e, f);
  long g = cilk_spawn square(3);
  overwrite(); /* races with the child's read of squares[3] */
  cilk_sync;
  return g == 9 ? 0 : 1;
}
