// Verify that any statement can be spawned, as OpenCilk spawns it, in C++:
// blocks in a member function that use `this` and its members, in a loop;
// blocks whose locals are classes, with a lambda capturing them; a block
// that throws, caught around the spawn after the sync; a block holding a
// cilk_for over a reducer, and an expression statement updating the
// reducer, both the parent's reducer; an assignment that is not a call's;
// a structured binding read by a spawned statement; a block in a function
// template, per instantiation, and a spawned value that is not a call's
// (`T x = cilk_spawn n + 1;`) in a function template. Against the serial elision at 1, 2 and 4
// workers, with and without forced steals, at -O2 and -O0, and under
// AddressSanitizer.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
// RUN: %t | FileCheck %s
// CHECK: 4116 ab0! ab3! 1 499506 48 2.5
// CHECK-NEXT: 42 1.50
#include <cilk/cilk.h>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>
static long fib(long n) { if (n < 2) return n; long x = cilk_spawn fib(n - 1); long y = fib(n - 2); cilk_sync; return x + y; }
struct Acc {
  std::vector<long> parts = std::vector<long>(8);
  long base = 3;
  void fill() {
    for (int i = 0; i < 8; ++i)
      cilk_spawn { parts[i] = fib(10 + i) + base; }
    cilk_sync;
  }
};
template <class T> T plus_one(T n) {
  T x = cilk_spawn n + 1; // a value, not a call, per instantiation
  cilk_sync;
  return x;
}
template <class T> T twice(T v) {
  T r{};
  cilk_spawn { r = v + v; }
  cilk_sync;
  return r;
}
void zero(void *v) { *static_cast<long *>(v) = 0; }
void plus(void *l, void *r) { *static_cast<long *>(l) += *static_cast<long *>(r); }
int main() {
  Acc a;
  a.fill();
  long s = 0;
  for (long p : a.parts) s += p;
  std::string text = "ab";
  std::vector<std::string> words(4);
  for (int i = 0; i < 4; ++i) {
    cilk_spawn {
      std::string w = text + std::to_string(i);
      auto add = [&](const char *x) { w += x; };
      add("!");
      words[i] = w;
    }
  }
  cilk_sync;
  int caught = 0;
  try {
    cilk_spawn { if (s > 0) throw std::runtime_error("boom"); }
    cilk_sync;
  } catch (const std::runtime_error &e) { caught = 1; }
  long cilk_reducer(zero, plus) sum = 0;
  cilk_spawn { cilk_for (int i = 0; i < 1000; ++i) sum += i; }
  cilk_spawn sum += 5;
  sum += 1;
  cilk_sync;
  auto [x, y] = std::pair<int, int>(2, 3);
  int z = 0;
  cilk_spawn z = x * y + twice(21);
  cilk_sync;
  printf("%ld %s %s %d %ld %d %.1f\n", s, words[0].c_str(), words[3].c_str(), caught, (long)sum, z, twice(1.25));
  printf("%ld %.2f\n", plus_one(41L), plus_one(0.5));
}
