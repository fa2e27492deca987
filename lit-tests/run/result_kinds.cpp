// Verify spawned calls of every result kind: a returned reference (the load
// through it is part of the child's statement), bool, char, float, double,
// long double, __int128, a 3-byte struct, std::complex, a vector type, a
// constexpr function, and a variadic template forwarding a parameter pack.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <complex>
static long G = 7;
static long &ref() { return G; }
static bool fb(long n) { return n & 1; }
static char fc(long n) { return 'a' + n; }
static float ff(long n) { return n * 0.5f; }
static double fd(long n) { return n * 0.25; }
static long double fld(long n) { return n * 0.125L; }
static __int128 fi(long n) { return (__int128)n << 70; }
struct Odd { char a, b, c; };
static Odd fo(long n) { return {char(n), char(n + 1), char(n + 2)}; }
static std::complex<double> fz(long n) { return {double(n), -double(n)}; }
typedef float v4 __attribute__((vector_size(16)));
static v4 fv(long n) { return v4{float(n), 1, 2, 3}; }
template <class... A> long sum(A... a) { long s = (0 + ... + a); return s; }
template <class... A> long pk(A... a) { long x = cilk_spawn sum(a...); long y = sum(a..., 1L); cilk_sync; return x + y; }
constexpr long ce(long n) { return n * 2; }
long run(long n) {
  long r = cilk_spawn ref();
  bool b = cilk_spawn fb(n);
  char c = cilk_spawn fc(n);
  float f = cilk_spawn ff(n);
  double d = cilk_spawn fd(n);
  long double ld = cilk_spawn fld(n);
  __int128 i = cilk_spawn fi(n);
  Odd o = cilk_spawn fo(n);
  std::complex<double> z = cilk_spawn fz(n);
  v4 v = cilk_spawn fv(n);
  long e = cilk_spawn ce(n);
  cilk_sync;
  return r + b + c + (long)f + (long)(d * 4) + (long)(ld * 8) + (long)(i >> 70) + o.a + o.b + o.c + (long)z.real() - (long)z.imag() + (long)v[0] + e + pk(n, 2L, 3L);
}
int main() { long t = 0; for (long n = 0; n < 50; ++n) t += run(n); printf("%ld\n", t); }
