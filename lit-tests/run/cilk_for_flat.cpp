// Verify a flat cilk_for of 10^6 iterations whose result depends on every
// one of them, iterations writing a shared local array (and a local
// variable of the parent, read-only) in distinct slots, grain sizes from
// `#pragma cilk grainsize` (an expression of run-time values, 1, larger
// than the loop, the `= N` spelling), the default grain for a loop shorter
// than it, and the loop variable taken by address inside the body (each
// iteration has its own). At -O0 and -O2, under AddressSanitizer, and
// without exceptions.
// RUN: %clangxx -O2 -Wno-unknown-pragmas %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
// RUN: %weftcxx -O2 -fno-exceptions %s -o %t.noexc
// RUN: %run-check %t.noexc %t.serial
// RUN: %weftcxx -O1 -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
// LOWERED: call void @__weft_parallel_for(
#include <cilk/cilk.h>

#include <cstdint>
#include <cstdio>
#include <vector>

static volatile long vn = 1000000, vdiv = 3000;

static std::uint64_t hash(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

static void store_through(const long *i, long *slot) { *slot = *i * 2 + 1; }

int main() {
  const long n = vn;
  std::vector<std::uint64_t> out(n);
  std::uint64_t salt = 0x5bd1e995; // a parent local the iterations read
  cilk_for (long i = 0; i < n; ++i)
    out[i] = hash(std::uint64_t(i) ^ salt);
  std::uint64_t check = 0;
  for (long i = 0; i < n; ++i)
    check = check * 31 + out[i];
  std::printf("flat 10^6: %llx\n", (unsigned long long)check);

  long slots[4096]; // a local array of the parent, one slot per iteration
  long divisor = vdiv;
#pragma cilk grainsize n / divisor + 1
  cilk_for (int i = 0; i < 4096; ++i)
    slots[i] = long(i) * i - divisor;
  long sum = 0;
  for (long v : slots)
    sum += v;
  std::printf("shared local, grainsize n / divisor + 1: %ld\n", sum);

#pragma cilk grainsize 1
  cilk_for (int i = 0; i < 4096; ++i)
    slots[i] = long(hash(i) % 1000);
  sum = 0;
  for (long v : slots)
    sum += v;
  std::printf("grainsize 1: %ld\n", sum);

#pragma cilk grainsize = 100000
  cilk_for (int i = 0; i < 4096; ++i)
    slots[i] = i;
  sum = 0;
  for (long v : slots)
    sum += v;
  std::printf("grainsize above n: %ld\n", sum);

  long few[3] = {0, 0, 0};
  cilk_for (int i = 0; i < 3; ++i)
    few[i] = 10 + i;
  std::printf("n below the grain: %ld %ld %ld\n", few[0], few[1], few[2]);

  cilk_for (long i = 0; i < 4096; ++i)
    store_through(&i, &slots[i]);
  sum = 0;
  for (long v : slots)
    sum += v;
  std::printf("loop variable by address: %ld\n", sum);
  return 0;
}
