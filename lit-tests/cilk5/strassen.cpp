// Strassen's matrix multiplication, as in Cilk-5's strassen: each level
// forms the ten quadrant sums in parallel (ten spawns), then the seven
// half-size products in parallel (seven spawns, recursing), then combines
// them into C with cilk_for. All seventeen temporaries live in one
// std::vector owned by the frame, reached through views computed by a
// lambda in the spawned calls' arguments. Integer matrices, so the result
// is exact and is compared with a naive triple loop.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 256 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 128
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 64
// CHECK: strassen n=256 ok checksum=
#include <cilk/cilk.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct View {
  int64_t *p;
  long ld;
  int64_t &operator()(long i, long j) const { return p[i * ld + j]; }
  View quad(long h, int r, int c) const { return {p + r * h * ld + c * h, ld}; }
};

enum { BASE = 16 };

// out = x + sign * y, all n x n.
static void combine(long n, View out, View x, View y, int sign) {
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j)
      out(i, j) = x(i, j) + sign * y(i, j);
}

// c = a * b, n a power of two.
static void strassen(long n, View a, View b, View c) {
  if (n <= BASE) {
    for (long i = 0; i < n; ++i)
      for (long j = 0; j < n; ++j) {
        int64_t sum = 0;
        for (long k = 0; k < n; ++k)
          sum += a(i, k) * b(k, j);
        c(i, j) = sum;
      }
    return;
  }
  long h = n / 2;
  std::vector<int64_t> work(17 * h * h);
  auto t = [&work, h](int k) { return View{work.data() + k * h * h, h}; };
  View a11 = a.quad(h, 0, 0), a12 = a.quad(h, 0, 1), a21 = a.quad(h, 1, 0), a22 = a.quad(h, 1, 1);
  View b11 = b.quad(h, 0, 0), b12 = b.quad(h, 0, 1), b21 = b.quad(h, 1, 0), b22 = b.quad(h, 1, 1);

  // Sums S0..S9 in t(0)..t(9).
  cilk_spawn combine(h, t(0), a11, a22, +1);
  cilk_spawn combine(h, t(1), b11, b22, +1);
  cilk_spawn combine(h, t(2), a21, a22, +1);
  cilk_spawn combine(h, t(3), b12, b22, -1);
  cilk_spawn combine(h, t(4), b21, b11, -1);
  cilk_spawn combine(h, t(5), a11, a12, +1);
  cilk_spawn combine(h, t(6), a21, a11, -1);
  cilk_spawn combine(h, t(7), b11, b12, +1);
  cilk_spawn combine(h, t(8), a12, a22, -1);
  combine(h, t(9), b21, b22, +1);
  cilk_sync;

  // Products M1..M7 in t(10)..t(16).
  cilk_spawn strassen(h, t(0), t(1), t(10)); // (A11 + A22)(B11 + B22)
  cilk_spawn strassen(h, t(2), b11, t(11));  // (A21 + A22) B11
  cilk_spawn strassen(h, a11, t(3), t(12));  // A11 (B12 - B22)
  cilk_spawn strassen(h, a22, t(4), t(13));  // A22 (B21 - B11)
  cilk_spawn strassen(h, t(5), b22, t(14));  // (A11 + A12) B22
  cilk_spawn strassen(h, t(6), t(7), t(15)); // (A21 - A11)(B11 + B12)
  strassen(h, t(8), t(9), t(16));            // (A12 - A22)(B21 + B22)
  cilk_sync;

  View m1 = t(10), m2 = t(11), m3 = t(12), m4 = t(13), m5 = t(14), m6 = t(15), m7 = t(16);
  View c11 = c.quad(h, 0, 0), c12 = c.quad(h, 0, 1), c21 = c.quad(h, 1, 0), c22 = c.quad(h, 1, 1);
  cilk_for (long i = 0; i < h; ++i)
    for (long j = 0; j < h; ++j) {
      c11(i, j) = m1(i, j) + m4(i, j) - m5(i, j) + m7(i, j);
      c12(i, j) = m3(i, j) + m5(i, j);
      c21(i, j) = m2(i, j) + m4(i, j);
      c22(i, j) = m1(i, j) - m2(i, j) + m3(i, j) + m6(i, j);
    }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 64;
  if (n < 1 || n > 2048 || (n & (n - 1)) != 0) {
    std::fprintf(stderr, "usage: strassen N (a power of two up to 2048)\n");
    return 2;
  }
  std::vector<int64_t> a(n * n), b(n * n), c(n * n), naive(n * n);
  uint64_t state = 99;
  for (long i = 0; i < n * n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    a[i] = static_cast<int64_t>((state >> 33) % 201) - 100;
    b[i] = static_cast<int64_t>((state >> 45) % 201) - 100;
  }
  strassen(n, View{a.data(), n}, View{b.data(), n}, View{c.data(), n});
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (long k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      naive[i * n + j] = sum;
    }
  bool ok = c == naive;
  uint64_t checksum = 0;
  for (long i = 0; i < n * n; ++i)
    checksum = checksum * 31 + static_cast<uint64_t>(c[i]);
  std::printf("strassen n=%ld %s checksum=%016llx\n", n, ok ? "ok" : "WRONG",
              static_cast<unsigned long long>(checksum));
  return ok ? 0 : 1;
}
