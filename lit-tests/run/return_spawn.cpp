// Verify `return cilk_spawn f(x);` against the serial elision, with no
// warning (as in OpenCilk), in parentheses too: scalar, pointer, floating-point and converted
// results, results loaded through a returned reference, void functions,
// member calls, unbraced branches, inside a cilk_scope, templates and
// lambdas (all spawned: the child may overlap with earlier children), and
// class results and returns in catch handlers (plain calls after the
// implicit sync). WEFT_STATS counts the spawns: fib_ret spawns twice per
// call with n >= 2.
// RUN: %clangxx -Werror -O2 %s -o %t.serial
// RUN: %weftcxx -Werror -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -Werror -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.o2 fib 2>&1 | FileCheck %s
// CHECK: fib_ret 6765
// CHECK: weft-stats: workers=1 threads=1 spawns=21890 steals=0
#include <cilk/cilk.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

static void spin() {
  for (volatile int i = 0; i < 5000; ++i) {
  }
}
static void slow_store(long *out, long v) {
  spin();
  *out = v;
}

static long add(long a, long b) { return a + b; }

// 10945 calls with n >= 2 for fib(20): 21890 spawns.
static long fib_ret(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib_ret(n - 1);
  long y = fib_ret(n - 2);
  cilk_sync;
  return cilk_spawn add(x, y);
}

static int small(long n) { return (int)(n % 1000); }
// An earlier child writes *side while the returned call runs.
static long converted(long n, long *side) {
  cilk_spawn slow_store(side, fib_ret(n % 15));
  return cilk_spawn small(n * 7);
}

static double half(double v) { return v / 2; }
static double floating(double v) { return (cilk_spawn half(v)); }

static long table[4] = {10, 20, 30, 40};
static long &slot(long i) { return table[i & 3]; }
static long through_reference(long i) { return cilk_spawn slot(i); }

static const char *name_of(long i) { return i % 2 ? "odd" : "even"; }
static const char *pointer(long i) { return cilk_spawn name_of(i); }

static void fill(long *out, long n) {
  if (n == 0)
    return;
  cilk_spawn slow_store(out, n * n);
  return cilk_spawn fill(out + 1, n - 1);
}

struct Counter {
  long base;
  long add(long v) const { return base + v; }
};
static long member(const Counter &c, long v, long *side) {
  *side = cilk_spawn c.add(1);
  if (v > 3)
    return cilk_spawn c.add(v);
  cilk_sync;
  return *side * 2;
}

static long in_scope(long n) {
  long a = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, n);
    if (n > 2)
      return cilk_spawn fib_ret(n); // leaves the scope after the sync
  }
  return a;
}

static std::string word(long n) { return std::string((size_t)n, 'w'); }
static std::string class_result(long n) {
  long a = 0;
  cilk_spawn slow_store(&a, n);
  return cilk_spawn word(n); // a plain call after the implicit sync
}

static long may_throw(long n) {
  if (n > 5)
    throw std::runtime_error("big");
  return n;
}
static long in_handler(long n) {
  long a = 0;
  try {
    a = cilk_spawn may_throw(n);
    cilk_sync;
  } catch (const std::runtime_error &) {
    return cilk_spawn fib_ret(n); // a plain call: a handler does not sync
  }
  return a;
}

template <typename T> static T twice(T v) { return v * 2; }
template <typename T> static T templated(T v, T *side) {
  *side = cilk_spawn twice(v);
  return cilk_spawn twice(v + 1);
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "fib") == 0) {
    std::printf("fib_ret %ld\n", fib_ret(20));
    return 0;
  }
  std::printf("fib_ret %ld\n", fib_ret(18));
  long side = 0, side2 = 0;
  long c1 = converted(12, &side), c2 = converted(5, &side2);
  std::printf("converted %ld %ld %ld %ld\n", c1, side, c2, side2);
  std::printf("floating %.3f\n", floating(5.5));
  std::printf("reference %ld %ld\n", through_reference(2), through_reference(7));
  std::printf("pointer %s %s\n", pointer(3), pointer(4));
  long squares[6] = {0};
  fill(squares, 6);
  std::printf("void %ld %ld %ld\n", squares[0], squares[3], squares[5]);
  long m1 = member(Counter{100}, 9, &side), m2 = member(Counter{5}, 1, &side2);
  std::printf("member %ld %ld %ld %ld\n", m1, side, m2, side2);
  std::printf("scope %ld %ld\n", in_scope(9), in_scope(1));
  std::printf("class %s\n", class_result(5).c_str());
  std::printf("handler %ld %ld\n", in_handler(3), in_handler(12));
  int side3 = 0;
  long t1 = templated(4L, &side);
  int t2 = templated(3, &side3);
  std::printf("template %ld %ld %d %d\n", t1, side, t2, side3);
  auto lambda = [](long n) { return cilk_spawn fib_ret(n); };
  std::printf("lambda %ld\n", lambda(15));
  return 0;
}
