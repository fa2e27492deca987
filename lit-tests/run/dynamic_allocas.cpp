// Verify alloca() and variable-length arrays in spawning functions against
// the serial elision: the Cilk-5 nqueens that allocas a board per child
// (each alive until the function returns), a VLA per loop iteration passed
// to a spawned child with syncs inside its scope, a VLA declared before the
// first spawn and read after the sync, and a VLA in an inlined callee. Fast
// clones keep these on their stack; slow clones take them from the frame's
// arena, which must be released (LeakSanitizer runs under ASan).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 9
// RUN: %weftcxx -O0 -g %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 9
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 8
// The fast clone allocates on its stack, the slow clone from the arena.
// RUN: %weftcxx -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}} @_Z7nqueensiiPKc(
// IR-NOT: __weft_arena_alloc
// IR: alloca i8, i64
// IR-LABEL: define {{.*}} @_Z7nqueensiiPKc.resume(
// IR: call {{.*}} @__weft_arena_alloc(
// IR: call void @__weft_arena_release(
#include <cilk/cilk.h>
#include <alloca.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static bool ok(const char *board, int n, int col) {
  for (int i = 0; i < n; i++) {
    int p = board[i];
    if (p == col || p - col == n - i || p - col == i - n)
      return false;
  }
  return true;
}

long nqueens(int n, int j, const char *a) {
  if (j == n)
    return 1;
  long *count = (long *)alloca(n * sizeof(long));
  memset(count, 0, n * sizeof(long));
  for (int i = 0; i < n; i++) {
    char *b = (char *)alloca((j + 1) * sizeof(char));
    memcpy(b, a, j);
    b[j] = (char)i;
    if (ok(b, j, i))
      count[i] = cilk_spawn nqueens(n, j + 1, b);
  }
  cilk_sync;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += count[i];
  return s;
}

long weighted_sum(const long *v, int k) {
  long s = 0;
  for (int i = 0; i < k; i++)
    s += v[i] * (i + 1);
  return s;
}

long vla_per_iteration(int n) {
  long out[64];
  for (int i = 0; i < n; i++) {
    long v[i + 1];
    for (int k = 0; k <= i; k++)
      v[k] = k + i;
    out[i] = cilk_spawn weighted_sum(v, i + 1);
    if (i % 5 == 0) {
      cilk_sync;
    }
  }
  cilk_sync;
  long t = 0;
  for (int i = 0; i < n; i++)
    t = t * 31 + out[i];
  return t;
}

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

long vla_before_spawns(int n) {
  long a[n];
  for (int i = 0; i < n; i++)
    a[i] = cilk_spawn fib(i % 18);
  cilk_sync;
  long t = 0;
  for (int i = 0; i < n; i++)
    t += a[i] * i;
  return t;
}

static inline long sum_of_squares(int n) {
  long a[n + 1];
  for (int i = 0; i <= n; i++)
    a[i] = (long)i * i;
  asm volatile("" : : "r"(a) : "memory");
  long s = 0;
  for (int i = 0; i <= n; i++)
    s += a[i];
  return s;
}

long inlined_vla(int n) {
  if (n < 2)
    return sum_of_squares(n + 3);
  long x = cilk_spawn inlined_vla(n - 1);
  long y = sum_of_squares(n);
  long z = inlined_vla(n - 2);
  cilk_sync;
  return x + y + z;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8;
  printf("nqueens(%d) = %ld\n", n, nqueens(n, 0, ""));
  printf("vla_per_iteration = %ld\n", vla_per_iteration(40));
  printf("vla_before_spawns = %ld\n", vla_before_spawns(200));
  printf("inlined_vla = %ld\n", inlined_vla(18));
}
