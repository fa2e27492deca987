// Verify that a flat loop of 2^20 spawns needs about as much memory as its
// serial elision: continuation stealing keeps only a few frames and stacks
// alive, whatever the number of workers and however often continuations are
// stolen. Two variants, each followed by one cilk_sync: void spawns writing
// through a pointer into a malloc'd array (`cilk_spawn work(i, &out[i])`),
// and results stored into a std::vector (`v[i] = cilk_spawn f(i)`). Around
// each loop the program returns free memory to the system, resets the peak
// resident set (VmHWM, via /proc/self/clear_refs), reads it before and after,
// and checks that the growth minus the output array's size stays below
// 32 MiB; it prints "memory bound holds" or the measured figure, and a hash
// of the results, so the output must equal the serial elision's. n = 2^20
// at -O2; 2^18 at -O0 and with ASan, to keep the stress runs short.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 20
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 18
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 18
#include <cilk/cilk.h>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static const long BoundBytes = 32L << 20;

// Peak resident set size in bytes (VmHWM), or -1.
static long peak_rss() {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  long kb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmHWM:", 6) == 0)
      kb = std::atol(line + 6);
  std::fclose(f);
  return kb < 0 ? -1 : kb * 1024;
}

// Gives freed memory back and resets VmHWM to the current resident set
// size, so that one loop's peak is measured on its own.
static void reset_peak() {
  malloc_trim(0);
  FILE *f = std::fopen("/proc/self/clear_refs", "w");
  if (f) {
    std::fputs("5", f);
    std::fclose(f);
  }
}

struct Meter {
  const char *what;
  long output_bytes;
  long before;
  Meter(const char *w, long bytes) : what(w), output_bytes(bytes) {
    reset_peak();
    before = peak_rss();
  }
  void report(unsigned long hash) const {
    long after = peak_rss();
    long extra = after - before - output_bytes;
    // For the log only: stdout must match the serial elision.
    std::fprintf(stderr, "%s: peak %ld KiB -> %ld KiB, beyond the output %ld KiB\n",
                 what, before >> 10, after >> 10, extra >> 10);
    if (before < 0 || after < 0)
      std::printf("%s: cannot read VmHWM\n", what);
    else if (extra < BoundBytes)
      std::printf("%s: memory bound holds\n", what);
    else
      std::printf("%s: peak grew by %ld KiB beyond the %ld KiB of output "
                  "(bound %ld KiB)\n",
                  what, extra >> 10, output_bytes >> 10, BoundBytes >> 10);
    std::printf("%s: hash %016lx\n", what, hash);
  }
};

__attribute__((noinline)) static long compute(long i) {
  unsigned long x = (unsigned long)i * 0x9e3779b97f4a7c15ul + 1;
  for (int k = 0; k < 8; ++k)
    x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ul;
  return (long)(x >> 1);
}
__attribute__((noinline)) static void work(long i, long *out) { *out = compute(i); }

static unsigned long hash_of(const long *v, long n) {
  unsigned long h = 1469598103934665603ul;
  for (long i = 0; i < n; ++i)
    h = (h ^ (unsigned long)v[i]) * 1099511628211ul;
  return h;
}

static void void_spawns(long n) {
  Meter m("void spawns into malloc'd array", n * (long)sizeof(long));
  long *out = static_cast<long *>(std::malloc(n * sizeof(long)));
  for (long i = 0; i < n; ++i)
    cilk_spawn work(i, &out[i]);
  cilk_sync;
  m.report(hash_of(out, n));
  std::free(out);
}

static void vector_results(long n) {
  Meter m("results into std::vector", n * (long)sizeof(long));
  std::vector<long> v(n);
  for (long i = 0; i < n; ++i)
    v[i] = cilk_spawn compute(n - 1 - i);
  cilk_sync;
  m.report(hash_of(v.data(), n));
}

int main(int argc, char **argv) {
  long log2n = argc > 1 ? std::atol(argv[1]) : 20;
  long n = 1L << log2n;
  std::printf("n = %ld\n", n);
  void_spawns(n);
  vector_results(n);
  return 0;
}
