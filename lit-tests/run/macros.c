/* Verify spawns and syncs written inside user macros, in C and C++: the
 * keyword in a function-like macro's body (`x = cilk_spawn fib(n)`), the
 * spawned call passed as a macro argument, a declaration, two spawns in one
 * macro, a macro that ends with the keyword (the call follows the macro
 * use), a macro for the keyword alone, `cilk_sync` behind a macro with and
 * without its semicolon, a do { } while (0) fork-join macro, a macro spawn
 * in a loop, the same macro used several times in one function and in a
 * template, weft_spawn, the attribute spelling inside a macro, and
 * `#pragma weft spawn` before a macro use. Against the serial elision; at
 * P=1 the runtime must make exactly as many spawns as the program counts
 * spawn statements (a macro spawn that silently ran serially would make
 * fewer).
 * RUN: %clang -O2 %s -o %t.serial
 * RUN: %weftcc -O2 %s -o %t.c
 * RUN: %run-check %t.c %t.serial 16
 * RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.c 4 2>&1 | FileCheck %s
 * RUN: %weftcc -O0 %s -o %t.c0
 * RUN: %run-check %t.c0 %t.serial 16
 * RUN: %clangxx -x c++ -O2 %s -x none -o %t.serialxx
 * RUN: %weftcxx -x c++ -O2 %s -x none -o %t.cxx
 * RUN: %run-check %t.cxx %t.serialxx 16
 * RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.cxx 4 2>&1 | FileCheck %s
 * RUN: %weftcxx -x c++ -O0 %s -x none -o %t.cxx0
 * RUN: %run-check %t.cxx0 %t.serialxx 16
 * CHECK: spawn statements [[N:[0-9]+]]
 * CHECK: weft-stats: {{.*}}spawns=[[N]] 
 */
#include <cilk/cilk.h>

#include <stdio.h>
#include <stdlib.h>

/* Counts one spawn statement, in the parent, just before it. */
#ifdef __cplusplus
#include <atomic>
static std::atomic<long> Counted{0};
#define COUNTED() Counted.fetch_add(1, std::memory_order_relaxed)
#define COUNT_TOTAL() Counted.load()
#else
#include <stdatomic.h>
static atomic_long Counted = 0;
#define COUNTED() atomic_fetch_add_explicit(&Counted, 1, memory_order_relaxed)
#define COUNT_TOTAL() atomic_load(&Counted)
#endif

static long fib(long n);

#define SPAWN_FIB(x, n) x = cilk_spawn fib(n)
#define SPAWN(call) cilk_spawn call
#define SPAWN_DECL(T, x, call) T x = cilk_spawn call
#define SPAWN_TWO(a, b, n)                                                     \
  a = cilk_spawn fib(n);                                                       \
  b = cilk_spawn fib((n) + 1)
#define INTO(x) x = cilk_spawn
#define MY_SPAWN cilk_spawn
#define SYNC cilk_sync
#define SYNC_STMT cilk_sync;
#define FORK_JOIN(r, f, a, b)                                                  \
  do {                                                                         \
    long x_ = cilk_spawn f(a);                                                 \
    long y_ = f(b);                                                            \
    cilk_sync;                                                                 \
    (r) = x_ + y_;                                                             \
  } while (0)
#define ASSIGN_FIB(x, n) x = fib(n)

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  COUNTED();
  SPAWN_FIB(a, n - 1);
  b = fib(n - 2);
  SYNC;
  return a + b;
}

static long leaf(long n) { return 3 * n + 1; }
static void fill(long *out, long n) { *out = n * n; }

static long forms(long n) {
  long a, b, c, d, e, f, g, h, j, k;
  COUNTED();
  b = SPAWN(leaf(n));
  COUNTED();
  SPAWN_DECL(long, decl, leaf(n + 1));
  COUNTED();
  COUNTED();
  SPAWN_TWO(c, d, n % 10);
  COUNTED();
  INTO(e) leaf(n + 2);
  COUNTED();
  f = MY_SPAWN leaf(n + 3);
  COUNTED();
  g = weft_spawn leaf(n + 4);
  COUNTED();
  SPAWN_FIB(a, n % 12);
  COUNTED();
  cilk_spawn fill(&h, n);
  SYNC_STMT
  COUNTED();
  FORK_JOIN(j, fib, n % 10, n % 9);
  COUNTED();
#pragma weft spawn
  ASSIGN_FIB(k, n % 11);
  SYNC;
  return a + b * 3 + c * 5 + d * 7 + e * 11 + f * 13 + g * 17 + h * 19 +
         decl * 23 + j * 29 + k * 31;
}

static long in_loop(long n) {
  long out[16];
  for (long i = 0; i < 16; ++i) {
    COUNTED();
    SPAWN_FIB(out[i], (n + i) % 12);
  }
  SYNC;
  long s = 0;
  for (long i = 0; i < 16; ++i)
    s = s * 31 + out[i];
  return s;
}

#ifdef __cplusplus
#define ASPAWN(x, call) [[weft::spawn]] x = call
#define SPAWN_GET(obj, n) cilk_spawn (obj).get(n)
struct Box {
  long k;
  long get(long n) const { return n * k; }
};
template <typename T> static T in_template(T n) {
  T a, b;
  COUNTED();
  SPAWN_FIB(a, (long)n % 11);
  COUNTED();
  ASPAWN(b, fib((long)n % 10));
  Box box{(long)n};
  COUNTED();
  long c = SPAWN_GET(box, 3);
  SYNC;
  return a + b * 3 + (T)c * 5;
}
static long cxx_only(long n) {
  return in_template(n) + in_template((int)n) * 7;
}
#else
static long cxx_only(long n) { return n; }
#endif

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 16;
  unsigned long hash = 1469598103934665603ul;
  for (long n = 0; n <= N; ++n) {
    long v[3] = {forms(n), in_loop(n), cxx_only(n)};
    for (int i = 0; i < 3; ++i)
      hash = (hash ^ (unsigned long)v[i]) * 1099511628211ul;
    printf("%ld %ld %ld %ld\n", n, v[0], v[1], v[2]);
  }
  printf("hash %016lx\n", hash);
  printf("spawn statements %ld\n", (long)COUNT_TOTAL());
  fflush(stdout);
  return 0;
}
