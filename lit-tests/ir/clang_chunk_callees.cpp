// Verify that a parallel loop's chunk inlines the function that only it
// calls (finish/ChunkCallees.cpp). pfor calls its functor from the cilk_for
// and from a serial loop for small ranges, as parlaylib's parallel_for does;
// best_prefixes calls it with the grain a constant 0. The chunk is a
// function of its own from the start of the pipeline, and the inliner
// weighs it before best_prefixes inlines pfor: the functor still has two
// callers then, and is too big to inline into both (cost 480 against 325).
// Once the grain has folded the serial loop away, the chunk is its only
// caller, and the functor must end up inlined there, as in the serial
// elision, which inlines it into its one loop: no definition of it is left,
// and the chunk calls nothing but the checked read's error path. At -O2 and
// -O3, with and without exceptions; the results are checked against the
// serial elision, with forced steals.
//
// RUN: %weftcxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %weftcxx -O3 -fno-exceptions -S -emit-llvm %s -o %t.noexc.ll
// RUN: FileCheck %s < %t.noexc.ll
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 200000
// RUN: %run-check %t.o2 %t.serial 12345
//
// CHECK-NOT: define {{.*}}best_prefixes{{.*}}clEm
// CHECK-LABEL: define internal void @"_Z4pforIRZ13best_prefixesRK7CheckedmPlmE3$_0EvmmOT_l.weft.pfor"(
// CHECK-NOT: clEm
// CHECK-NOT: {{^}}}
// CHECK: call {{.*}}@fprintf(
// CHECK-NOT: clEm
// CHECK: {{^}}}
// CHECK-NOT: define {{.*}}best_prefixes{{.*}}clEm
#include <cilk/cilk.h>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

template <typename F>
inline void pfor(size_t start, size_t end, F &&f, long granularity) {
  if (granularity == 0) {
    cilk_for (size_t i = start; i < end; i++)
      f(i);
  } else if (end - start <= static_cast<size_t>(granularity)) {
    for (size_t i = start; i < end; i++)
      f(i);
  } else {
    size_t mid = start + (end - start) / 2;
    cilk_spawn pfor(start, mid, f, granularity);
    pfor(mid, end, f, granularity);
    cilk_sync;
  }
}

// A view whose every read is checked, as parlaylib's delayed sequences are.
struct Checked {
  const long *data;
  size_t size;
  long operator[](size_t i) const {
    if (i >= size) {
      std::fprintf(stderr, "index %zu out of %zu\n", i, size);
      std::abort();
    }
    return data[i];
  }
};

// Each block's best weighted prefix: a loop with a checked read and a
// running minimum, too big to inline twice.
__attribute__((noinline)) void best_prefixes(const Checked &in, size_t block,
                                             long *best, size_t blocks) {
  pfor(0, blocks, [&](size_t b) {
    long sum = 0, low = 0, high = 0, odd = 0;
    size_t at = 0, top = 0;
    for (size_t i = b * block; i < (b + 1) * block && i < in.size; i++) {
      long x = in[i], y = i + 1 < in.size ? in[i + 1] : 0;
      sum += x * static_cast<long>(i % 7 + 1) - y / 3;
      if (sum < low) {
        low = sum;
        at = i;
      }
      if (sum > high) {
        high = sum;
        top = i;
      }
      odd += (x ^ y) & 1 ? x % 5 : y % 11;
    }
    long mixed = 0;
    for (size_t i = b * block; i < (b + 1) * block && i < in.size; i += 3)
      mixed = mixed * 7 + in[i] % 13 + (in[i] > 0 ? 1 : -1);
    long spread = 0;
    for (size_t i = b * block + 1; i < (b + 1) * block && i < in.size; i += 2)
      spread += in[i] > in[i - 1] ? in[i] - in[i - 1] : (in[i - 1] - in[i]) / 2;
    odd ^= spread;
    best[b] = (low * 31 + static_cast<long>(at)) ^ (high * 17 - static_cast<long>(top)) ^ (odd + mixed);
  }, 0);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
  size_t block = 1000, blocks = (n + block - 1) / block;
  long *data = new long[n], *best = new long[blocks];
  for (size_t i = 0; i < n; i++)
    data[i] = static_cast<long>((i * 2654435761u) % 1000) - 500;
  best_prefixes(Checked{data, n}, block, best, blocks);
  long total = 0;
  for (size_t b = 0; b < blocks; b++)
    total = total * 3 + best[b];
  std::printf("%ld\n", total);
  delete[] data;
  delete[] best;
}
