/* Verify that AVX vectors in spawning functions, built with -mavx2 (and,
 * by avx512_vectors.test, with -mavx512f too), are kept at their alignment:
 * a spawning function that spills a __m256d with an aligned move crashed
 * when its frame was not realigned. Vectors kept across spawns, spawned as
 * results (intrinsics too: gathers, as a spawned statement), passed to a
 * spawned call, returned by a spawning function, in cilk_for bodies, and a
 * reducer whose view is a vector; in C and as C++, at every optimisation
 * level, against the serial elision at P=1, 2, 4 with and without steals.
 * REQUIRES: avx2
 * RUN: %clang -O2 -mavx2 %s -o %t.serial
 * RUN: %weftcc -O0 -mavx2 %s -o %t.o0
 * RUN: %run-check %t.o0 %t.serial
 * RUN: %weftcc -Og -mavx2 %s -o %t.og
 * RUN: %run-check %t.og %t.serial
 * RUN: %weftcc -O2 -mavx2 %s -o %t.o2
 * RUN: %run-check %t.o2 %t.serial
 * RUN: %weftcc -O3 -mavx2 %s -o %t.o3
 * RUN: %run-check %t.o3 %t.serial
 * RUN: %weftcxx -x c++ -O1 -mavx2 %s -o %t.cxx1
 * RUN: %run-check %t.cxx1 %t.serial
 * RUN: %weftcxx -x c++ -O3 -mavx2 %s -o %t.cxx3
 * RUN: %run-check %t.cxx3 %t.serial
 */
#include <cilk/cilk.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int misaligned;
static void check(const void *p, size_t align, const char *what) {
  if ((uintptr_t)p % align) {
    __atomic_fetch_add(&misaligned, 1, __ATOMIC_RELAXED);
    printf("MISALIGNED %s %p (wants %zu)\n", what, p, align);
  }
}

__attribute__((noinline)) static long leaf(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += i ^ n;
  return s;
}

__attribute__((noinline)) static __m256d twice(__m256d a) {
  return _mm256_add_pd(a, a);
}

__attribute__((noinline)) static double sum4(__m256d a) {
  double d[4];
  _mm256_storeu_pd(d, a);
  return d[0] + d[1] + d[2] + d[3];
}

static long isum8(__m256i v) {
  int d[8];
  _mm256_storeu_si256((__m256i *)d, v);
  long s = 0;
  for (int i = 0; i < 8; ++i)
    s += d[i];
  return s;
}

/* The shape that crashed: a spawned call's 32-byte result in the frame. */
static double spawned_result(long n) {
  __m256d a = _mm256_set_pd(1, 2, 3, (double)n);
  __m256d r = cilk_spawn twice(a);
  long y = leaf(n % 50);
  cilk_sync;
  return sum4(r) + (double)y;
}

/* Gathers spawned; the continuation only reads the table. */
static long gathers(const int *x, const double *d, long n) {
  __m256i indx = _mm256_set_epi32(1, 50, 100, 500, 1000, 50, 10, 3);
  __m256i src = _mm256_set1_epi32(7);
  __m256i mask = _mm256_set_epi32(0, -1, 0, -1, 0, -1, 0, -1);
  __m256i y = cilk_spawn _mm256_mask_i32gather_epi32(src, x, indx, mask, 4);
  __m128i di = _mm_set_epi32(1, 100, 1000, (int)(n % 1000));
  __m256d z = cilk_spawn _mm256_i32gather_pd(d, di, 8);
  long s = 0;
  for (long i = 1; i < 1000; i *= 10)
    s += x[i];
  cilk_sync;
  return s + isum8(y) + (long)sum4(z);
}

/* Vectors live in registers across spawns, spilled to the frame. */
static double kept(long n) {
  __m256d a = _mm256_set_pd((double)n, 2, 3, 4);
  __m256d b = _mm256_mul_pd(a, a);
  __m256i c = _mm256_set1_epi64x(n);
  long x = cilk_spawn leaf(n % 60);
  __m256d e = cilk_spawn twice(b);
  long y = leaf(n % 70);
  cilk_sync;
  a = _mm256_add_pd(a, b);
  c = _mm256_add_epi64(c, _mm256_set1_epi64x(x));
  return sum4(a) + sum4(e) + (double)(y + isum8(c));
}

/* An address-taken vector, written by a child. */
__attribute__((noinline)) static void store_twice(__m256d *p, long n) {
  check(p, 32, "a vector written by a child");
  *p = _mm256_set1_pd((double)leaf(n % 40));
}
static double address_taken(long n) {
  __m256d v[3];
  check(v, 32, "a vector array");
  cilk_spawn store_twice(&v[0], n);
  cilk_spawn store_twice(&v[2], n + 1);
  v[1] = _mm256_set1_pd((double)n);
  cilk_sync;
  return sum4(v[0]) + sum4(v[1]) + sum4(v[2]);
}

/* A spawning function that returns a vector. */
static __m256d spawning_vector(long n) {
  if (n < 2)
    return _mm256_set1_pd((double)n);
  __m256d a = cilk_spawn spawning_vector(n - 1);
  __m256d b = spawning_vector(n - 2);
  cilk_sync;
  return _mm256_add_pd(a, b);
}

/* Loop bodies and spawned statements. */
static double loops(long n) {
  double out[256];
  cilk_for (int i = 0; i < 256; ++i) {
    __m256d v = _mm256_set_pd((double)i, (double)n, 1, 2);
    __m256d w = twice(v);
    out[i] = sum4(_mm256_mul_pd(v, w));
  }
  __m256d shared = _mm256_setzero_pd();
  cilk_spawn {
    __m256d inner = _mm256_set1_pd((double)leaf(n % 30));
    shared = twice(inner);
  }
  __m256d mine = twice(_mm256_set1_pd(3.0));
  cilk_sync;
  double s = 0;
  for (int i = 0; i < 256; ++i)
    s += out[i];
  return s + sum4(shared) + sum4(mine);
}

/* A reducer whose view is a vector. */
static void vzero(void *v) {
  check(v, 32, "a vector reducer's view");
  *(__m256d *)v = _mm256_setzero_pd();
}
static void vadd(void *l, void *r) {
  check(l, 32, "a vector reducer's left view");
  check(r, 32, "a vector reducer's right view");
  *(__m256d *)l = _mm256_add_pd(*(__m256d *)l, *(__m256d *)r);
}
static double reduce(long n) {
  __m256d cilk_reducer(vzero, vadd) sum = _mm256_setzero_pd();
  cilk_for (long i = 0; i < 2000; ++i)
    sum = _mm256_add_pd(sum, _mm256_set_pd((double)i, (double)n, 1, (double)(i % 7)));
  return sum4(sum);
}

#ifdef __AVX512F__
__attribute__((noinline)) static __m512d twice512(__m512d a) {
  return _mm512_add_pd(a, a);
}
static double wide(long n) {
  __m512d a = _mm512_set1_pd((double)n);
  __m512d r = cilk_spawn twice512(a);
  __m512d k = _mm512_set1_pd((double)leaf(n % 20));
  long y = leaf(n % 50);
  cilk_sync;
  __m512d v[2];
  check(v, 64, "a __m512d array");
  cilk_for (int i = 0; i < 2; ++i)
    v[i] = twice512(_mm512_set1_pd((double)i));
  return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(r, k),
                                            _mm512_add_pd(v[0], v[1]))) +
         (double)y;
}
#else
static double wide(long n) { return 16.0 * (double)n + 8.0 * (double)leaf(n % 20) + (double)leaf(n % 50) + 16.0; }
#endif

int main(void) {
  int *x = (int *)malloc(1001 * sizeof(int));
  double *d = (double *)malloc(1001 * sizeof(double));
  for (int i = 0; i <= 1000; ++i)
    x[i] = i * 3, d[i] = i * 0.5;
  double total = 0;
  for (long n = 1; n < 30; n += 4) {
    double a = spawned_result(n), b = (double)gathers(x, d, n), c = kept(n),
           e = address_taken(n), f = sum4(spawning_vector(n % 16)),
           g = loops(n), h = reduce(n), w = wide(n);
    printf("n=%ld %g %g %g %g %g %g %g %g\n", n, a, b, c, e, f, g, h, w);
    total += a + b + c + e + f + g + h + w;
  }
  printf("total=%g misaligned=%d\n", total, misaligned);
  free(x);
  free(d);
  return misaligned != 0;
}
