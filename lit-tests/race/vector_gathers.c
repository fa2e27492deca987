/* Verify that AVX2 gathers, masked loads and masked stores are checked
 * lane by lane, at the intrinsic's line: a spawned gather races with a
 * write of one of the elements it gathers, a spawned masked store with a
 * read of an element its mask selects, and a spawned masked load with a
 * write of one. A gather whose indices avoid the written element, a
 * masked gather and a masked load whose masks leave it out, and a masked
 * store whose mask leaves out the element the continuation reads race with
 * nothing, and neither does anything after the sync. A masked store whose
 * mask is all on races with a read of its last element: four races. The
 * masks in memory keep the x86 intrinsics at -O2; there the constant one
 * that leaves a lane out becomes a generic llvm.masked.store, and the one
 * all on a plain 32-byte store, which ThreadSanitizer has no call for. In
 * C and C++, at -O0 and -O2.
 * REQUIRES: avx2
 * RUN: %weftcc --weft-race -mavx2 -O0 -g %s -o %t0
 * RUN: %expect-races 4 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -mavx2 -O2 -g %s -o %t2
 * RUN: %expect-races 4 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -mavx2 -O0 -g %s -o %t0cxx
 * RUN: %expect-races 4 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -mavx2 -O2 -g %s -o %t2cxx
 * RUN: %expect-races 4 66 %t2cxx | FileCheck %s
 * CHECK: gathered 560 84 517 seen 5 0 3 kept 49 loaded 8.0 1.0 after -1 2.5 9.0
 */
#include <cilk/cilk.h>
#include <immintrin.h>
#include <stdio.h>

int table[16];
int out[8], kept[8], all[8];
float weights[8];
double partial[4];
/* Masks the optimizer cannot fold into the intrinsics. */
int first_four[8] = {-1, -1, -1, -1, 0, 0, 0, 0};
int all_but_lane_3[8] = {-1, -1, -1, 0, -1, -1, -1, -1};
long long first_two[4] = {-1, -1, 0, 0};
int gathered[8], odd[4], masked[8];
float loaded[8];
double loaded_pd[4];

__attribute__((noinline)) void gather_even(void) {
  __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  __m256i v = _mm256_i32gather_epi32(table, even, 4); // CHECK-DAG: read of 4 bytes in gather_even{{.*}}vector_gathers.c:[[@LINE]]:
  _mm256_storeu_si256((__m256i *)gathered, v);
}

/* Elements 1, 3, 5 and 7; then the even ones but element 6, whose lane
 * (3) the mask leaves out. */
__attribute__((noinline)) void gather_avoiding_six(void) {
  __m128i odd_indices = _mm_setr_epi32(1, 3, 5, 7);
  _mm_storeu_si128((__m128i *)odd, _mm_i32gather_epi32(table, odd_indices, 4));
  __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  __m256i mask = _mm256_loadu_si256((const __m256i *)all_but_lane_3);
  __m256i v = _mm256_mask_i32gather_epi32(_mm256_set1_epi32(-7), table, even,
                                          mask, 4);
  _mm256_storeu_si256((__m256i *)masked, v);
}

__attribute__((noinline)) void store_first_four(void) {
  __m256i mask = _mm256_loadu_si256((const __m256i *)first_four);
  _mm256_maskstore_epi32(out, mask, _mm256_set1_epi32(5)); // CHECK-DAG: write of 4 bytes in store_first_four{{.*}}vector_gathers.c:[[@LINE]]:
}

__attribute__((noinline)) void store_all_but_six(void) {
  __m256i mask = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, -1);
  _mm256_maskstore_epi32(kept, mask, _mm256_set1_epi32(7));
}

/* At -O2 a plain store of the whole vector: one check of 32 bytes. */
__attribute__((noinline)) void store_all_eight(void) {
  __m256i mask = _mm256_set1_epi32(-1);
  _mm256_maskstore_epi32(all, mask, _mm256_set1_epi32(3)); // CHECK-DAG: write of {{4|32}} bytes in store_all_eight{{.*}}vector_gathers.c:[[@LINE]]:
}

__attribute__((noinline)) void load_first_four(void) {
  __m256i mask = _mm256_loadu_si256((const __m256i *)first_four);
  __m256 v = _mm256_maskload_ps(weights, mask); // CHECK-DAG: read of 4 bytes in load_first_four{{.*}}vector_gathers.c:[[@LINE]]:
  _mm256_storeu_ps(loaded, v);
}

__attribute__((noinline)) void load_first_two(void) {
  __m256i mask = _mm256_loadu_si256((const __m256i *)first_two);
  _mm256_storeu_pd(loaded_pd, _mm256_maskload_pd(partial, mask));
}

static int sum_ints(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

int main(void) {
  for (int i = 0; i < 16; ++i)
    table[i] = i * i;
  for (int i = 0; i < 8; ++i)
    weights[i] = i + 0.5f;
  for (int i = 0; i < 4; ++i)
    partial[i] = i;

  cilk_spawn gather_even();
  cilk_spawn gather_avoiding_six();
  table[6] = -1; // CHECK-DAG: write of 4 bytes in main{{.*}}vector_gathers.c:[[@LINE]]:
  cilk_sync;

  cilk_spawn store_first_four();
  cilk_spawn store_all_but_six();
  cilk_spawn store_all_eight();
  int seen = out[2]; // CHECK-DAG: read of 4 bytes in main{{.*}}vector_gathers.c:[[@LINE]]:
  int untouched = kept[6];
  int last = all[7]; // CHECK-DAG: read of 4 bytes in main{{.*}}vector_gathers.c:[[@LINE]]:
  cilk_sync;

  cilk_spawn load_first_four();
  cilk_spawn load_first_two();
  weights[1] = 2.5f; // CHECK-DAG: write of 4 bytes in main{{.*}}vector_gathers.c:[[@LINE]]:
  partial[3] = 9.0;
  cilk_sync;

  float loaded_sum = 0;
  for (int i = 0; i < 8; ++i)
    loaded_sum += loaded[i];
  printf("gathered %d %d %d seen %d %d %d kept %d loaded %.1f %.1f after %d %.1f "
         "%.1f\n",
         sum_ints(gathered, 8), sum_ints(odd, 4), sum_ints(masked, 8), seen,
         untouched, last, sum_ints(kept, 8), loaded_sum, loaded_pd[0] + loaded_pd[1],
         table[6], weights[1], partial[3]);
  return 0;
}
