// Verify cilk_for bodies that spawn (each iteration syncs its own children
// before it ends, `continue` included), nested cilk_for, cilk_for in a
// function that spawns before and after the loop, cilk_for in spawned
// children (loops inside loops inside spawns), VLAs and std::string locals
// in a spawning body, lambdas that spawn inside the body, and a body with
// no sync whose children use its locals (they finish before the locals
// are destroyed, at the body's end or at a `continue`).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
// RUN: %weftcxx -O1 -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
// LOWERED: call void @__weft_parallel_for(
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

void fill(long *buf, int n, long v) {
  for (int k = 0; k < n; ++k)
    buf[k] = v + k;
}

std::string label(int i) { return "item-" + std::to_string(i); }

long spawning_body(int n) {
  std::vector<long> r(n);
  cilk_for (int i = 0; i < n; ++i) {
    long x = cilk_spawn fib(i % 18);
    if (i % 7 == 0)
      continue; // the iteration's child is still synced
    long y = fib(i % 11);
    cilk_sync;
    r[i] = x + y;
  }
  long s = 0;
  for (long v : r)
    s += v;
  return s;
}

long nested(int n) {
  std::vector<std::vector<long>> m(n, std::vector<long>(n));
  cilk_for (int i = 0; i < n; ++i)
    cilk_for (int j = n - 1; j >= 0; --j)
      m[i][j] = fib((i + j) % 12) * (i + 1);
  long s = 0;
  for (auto &row : m)
    for (long v : row)
      s += v;
  return s;
}

long around(int n) {
  long before = cilk_spawn fib(17);
  long out[128] = {0};
  cilk_for (int i = 0; i < 128; ++i) {
    long buf[n + i % 4];
    std::string name = label(i);
    cilk_spawn fill(buf, n + i % 4, i);
    long y = cilk_spawn fib(i % 9);
    cilk_sync;
    long s = 0;
    for (int k = 0; k < n + i % 4; ++k)
      s += buf[k];
    out[i] = s + y + long(name.size());
  }
  long after = cilk_spawn fib(16);
  cilk_sync;
  long s = before + after;
  for (long v : out)
    s += v;
  return s;
}

long lambdas(int n) {
  std::vector<long> r(n);
  cilk_for (int i = 0; i < n; ++i) {
    auto twice = [](long k) {
      long a = cilk_spawn fib(k);
      long b = fib(k);
      cilk_sync;
      return a + b;
    };
    r[i] = twice(i % 15);
  }
  long s = 0;
  for (long v : r)
    s += v;
  return s;
}

struct Guarded {
  std::atomic<bool> alive{true};
  ~Guarded() { alive = false; }
};

static std::atomic<long> dead_uses{0};

void slow_use(Guarded *g, std::string *s, long *length) {
  usleep(500);
  if (!g->alive || s->size() != 6)
    ++dead_uses;
  *length = long(s->size());
}

long locals_without_sync() {
  long lengths[32] = {0}, marks[32] = {0};
  cilk_for (int i = 0; i < 32; ++i) {
    Guarded g;
    std::string s = "local" + std::to_string(i % 10);
    cilk_spawn slow_use(&g, &s, &lengths[i]);
    if (i % 3 == 0)
      continue;
    marks[i] = 1;
  }
  long total = 0;
  for (int i = 0; i < 32; ++i)
    total += lengths[i] + marks[i];
  return total * 1000 + dead_uses;
}

int main() {
  std::printf("spawning body: %ld\n", spawning_body(300));
  std::printf("nested: %ld\n", nested(40));
  std::printf("around: %ld\n", around(16));
  std::printf("lambdas: %ld\n", lambdas(200));
  std::printf("locals without sync: %ld\n", locals_without_sync());
  long a = cilk_spawn nested(20);
  long b = cilk_spawn spawning_body(100);
  long c = around(8);
  cilk_sync;
  std::printf("in spawned children: %ld %ld %ld\n", a, b, c);
  return 0;
}
