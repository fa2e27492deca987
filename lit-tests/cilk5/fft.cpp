// Cilk-5 style fft: a recursive radix-2 decimation-in-time FFT. Every phase
// is a parallel divide and conquer as in Cilk-5's fft.cilk: the table of
// roots of unity is filled by recursive range splitting, each level
// unshuffles its input into even and odd halves in parallel, spawns the two
// half-size transforms, and combines them with parallel butterflies over
// split ranges. The input of each call is reused as the scratch space of
// its children. Checked against a naive O(n^2) DFT (maximum error below a
// tolerance), by the inverse transform giving back the input, and by the
// two frequencies of the test signal showing up as the largest bins.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 4096 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 2048
// CHECK: fft n=4096 naive-dft ok inverse ok peaks 5 37
#include <cilk/cilk.h>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using Complex = std::complex<double>;

// Ranges up to this size are handled by a loop.
enum { GRAIN = 64, LEAF = 8 };

// w[k] = exp(-2 pi i k / n) for k in [lo, hi).
static void compute_w(long lo, long hi, long n, Complex *w) {
  if (hi - lo <= GRAIN) {
    for (long k = lo; k < hi; ++k)
      w[k] = std::polar(1.0, -2 * M_PI * static_cast<double>(k) / static_cast<double>(n));
    return;
  }
  long mid = lo + (hi - lo) / 2;
  cilk_spawn compute_w(lo, mid, n, w);
  compute_w(mid, hi, n, w);
  cilk_sync;
}

// out[i] = in[2i] and out[half + i] = in[2i + 1] for i in [lo, hi).
static void unshuffle(long lo, long hi, long half, const Complex *in, Complex *out) {
  if (hi - lo <= GRAIN) {
    for (long i = lo; i < hi; ++i) {
      out[i] = in[2 * i];
      out[half + i] = in[2 * i + 1];
    }
    return;
  }
  long mid = lo + (hi - lo) / 2;
  cilk_spawn unshuffle(lo, mid, half, in, out);
  unshuffle(mid, hi, half, in, out);
  cilk_sync;
}

// Butterflies k in [lo, hi) combining the half-size transforms in out.
static void twiddle(long lo, long hi, long half, Complex *out, const Complex *w, long wstride) {
  if (hi - lo <= GRAIN) {
    for (long k = lo; k < hi; ++k) {
      Complex even = out[k], odd = w[k * wstride] * out[half + k];
      out[k] = even + odd;
      out[half + k] = even - odd;
    }
    return;
  }
  long mid = lo + (hi - lo) / 2;
  cilk_spawn twiddle(lo, mid, half, out, w, wstride);
  twiddle(mid, hi, half, out, w, wstride);
  cilk_sync;
}

// out = DFT of in[0, n); in and scratch are overwritten. w holds the roots
// for the top-level size; wstride maps this level's roots onto it.
static void fft_aux(long n, Complex *in, Complex *out, Complex *scratch, const Complex *w,
                    long wstride) {
  if (n <= LEAF) {
    for (long k = 0; k < n; ++k) {
      Complex sum = 0;
      for (long j = 0; j < n; ++j)
        sum += in[j] * w[(j * k % n) * wstride];
      out[k] = sum;
    }
    return;
  }
  long half = n / 2;
  unshuffle(0, half, half, in, scratch);
  cilk_spawn fft_aux(half, scratch, out, in, w, 2 * wstride);
  fft_aux(half, scratch + half, out + half, in + half, w, 2 * wstride);
  cilk_sync;
  twiddle(0, half, half, out, w, wstride);
}

static std::vector<Complex> fft(std::vector<Complex> in) {
  long n = static_cast<long>(in.size());
  std::vector<Complex> out(n), scratch(n), w(n);
  compute_w(0, n, n, w.data());
  fft_aux(n, in.data(), out.data(), scratch.data(), w.data(), 1);
  return out;
}

// Serial reference: X[k] = sum_j x[j] exp(-2 pi i jk / n).
static std::vector<Complex> naive_dft(const std::vector<Complex> &x) {
  long n = static_cast<long>(x.size());
  std::vector<Complex> root(n), out(n);
  for (long k = 0; k < n; ++k)
    root[k] = std::polar(1.0, -2 * M_PI * static_cast<double>(k) / static_cast<double>(n));
  for (long k = 0; k < n; ++k) {
    Complex sum = 0;
    for (long j = 0; j < n; ++j)
      sum += x[j] * root[j * k % n];
    out[k] = sum;
  }
  return out;
}

static double max_error(const std::vector<Complex> &a, const std::vector<Complex> &b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    worst = std::fmax(worst, std::abs(a[i] - b[i]));
  return worst;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1024;
  if (n < 128 || n > (1 << 16) || (n & (n - 1)) != 0) {
    std::fprintf(stderr, "usage: fft N (a power of two, 128..65536)\n");
    return 2;
  }
  // Two tones (bins 5 and 37) plus small noise.
  std::vector<Complex> x(n);
  uint64_t state = 7;
  for (long j = 0; j < n; ++j) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    double noise = (static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5) * 0.01;
    double t = 2 * M_PI * static_cast<double>(j) / static_cast<double>(n);
    x[j] = Complex(std::cos(5 * t) + 0.5 * std::sin(37 * t) + noise, noise);
  }

  std::vector<Complex> X = fft(x);
  bool dft_ok = max_error(X, naive_dft(x)) < 1e-9 * static_cast<double>(n);

  // Inverse through conjugation: x = conj(fft(conj(X))) / n.
  std::vector<Complex> conj_X(n);
  for (long k = 0; k < n; ++k)
    conj_X[k] = std::conj(X[k]);
  std::vector<Complex> back = fft(conj_X);
  for (long j = 0; j < n; ++j)
    back[j] = std::conj(back[j]) / static_cast<double>(n);
  bool inverse_ok = max_error(back, x) < 1e-12;

  // The largest bins in the lower half of the spectrum.
  long first = 0, second = 0;
  for (long k = 1; k < n / 2; ++k) {
    if (std::abs(X[k]) > std::abs(X[first])) {
      second = first;
      first = k;
    } else if (std::abs(X[k]) > std::abs(X[second])) {
      second = k;
    }
  }
  std::printf("fft n=%ld naive-dft %s inverse %s peaks %ld %ld\n", n, dft_ok ? "ok" : "WRONG",
              inverse_ok ? "ok" : "WRONG", first, second);
  return dft_ok && inverse_ok && first == 5 && second == 37 ? 0 : 1;
}
