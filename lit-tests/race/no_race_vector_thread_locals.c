/* Verify that gathers and masked stores on a thread-local array are not
 * checked, as no access to a thread-local is (docs/race.md): a spawned
 * child's masked store into a thread-local array, the continuation's
 * gather from it and its own write of it race with nothing, while the
 * same shape on a global array still reports its race. In C and C++, at
 * -O0 and -O2.
 * REQUIRES: avx2
 * RUN: %weftcc --weft-race -mavx2 -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -mavx2 -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -mavx2 -O0 -g %s -o %t0cxx
 * RUN: %expect-races 1 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -mavx2 -O2 -g %s -o %t2cxx
 * RUN: %expect-races 1 66 %t2cxx | FileCheck %s
 * CHECK: sums 28 28
 */
#include <cilk/cilk.h>
#include <immintrin.h>
#include <stdio.h>

static __thread int local_lanes[8];
static int global_lanes[8];
static int mask_words[8] = {-1, -1, -1, -1, -1, -1, -1, -1};

static __m256i mask_of_all(void) {
  return _mm256_loadu_si256((const __m256i *)mask_words);
}

static const int reversed[8] = {7, 6, 5, 4, 3, 2, 1, 0};

static int sum_lanes(__m256i v) {
  int lanes[8];
  _mm256_storeu_si256((__m256i *)lanes, v);
  int sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += lanes[i];
  return sum;
}

/* The same shape on each array: the thread-local's accesses are its own. */
__attribute__((noinline)) void store_local(void) {
  _mm256_maskstore_epi32(local_lanes, mask_of_all(),
                         _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
__attribute__((noinline)) int gather_local(void) {
  __m256i index = _mm256_loadu_si256((const __m256i *)reversed);
  return sum_lanes(_mm256_i32gather_epi32(local_lanes, index, 4));
}
__attribute__((noinline)) void store_global(void) {
  _mm256_maskstore_epi32(global_lanes, mask_of_all(), // CHECK-DAG: write of {{[0-9]+}} bytes in store_global{{.*}}no_race_vector_thread_locals.c:[[@LINE]]:
                         _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
__attribute__((noinline)) int gather_global(void) {
  __m256i index = _mm256_loadu_si256((const __m256i *)reversed);
  return sum_lanes(_mm256_i32gather_epi32(global_lanes, index, 4)); // CHECK-DAG: read of 4 bytes in gather_global{{.*}}no_race_vector_thread_locals.c:[[@LINE]]:
}

int main(void) {
  cilk_spawn store_local();
  int seen_local = gather_local();
  cilk_sync;
  cilk_spawn store_global();
  int seen_global = gather_global();
  cilk_sync;
  printf("sums %d %d\n", seen_local, seen_global);
  return 0;
}
