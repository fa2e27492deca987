// Verify spawns inside lambdas that are not written in a function body: a
// namespace-scope variable's initialiser (plain, generic, and one whose
// spawning lambda holds another), a static data member, and a data
// member's default initialiser (a std::function). Against the serial
// elision; at P=1 the runtime must make exactly as many spawns as the
// program counts spawn statements.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 12
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.o2 3 2>&1 | FileCheck %s
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 12
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.o0 3 2>&1 | FileCheck %s
// CHECK: spawn statements [[N:[0-9]+]]
// CHECK: weft-stats: {{.*}}spawns=[[N]] 
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>

static std::atomic<long> SpawnStatements{0};
// Counts one spawn statement, in the parent, just before it.
static void counted() { SpawnStatements.fetch_add(1, std::memory_order_relaxed); }

static long sq(long v) { return v * v; }

static auto plain = [](long v) {
  counted();
  long x = cilk_spawn sq(v);
  long y = sq(v + 1);
  cilk_sync;
  return x + y;
};

auto generic = [](auto v) {
  counted();
  auto x = cilk_spawn sq(v);
  cilk_sync;
  return x * 3;
};

static auto nested = [](long v) {
  auto inner = [](long w) {
    counted();
    long x = cilk_spawn sq(w + 2);
    cilk_sync;
    return x;
  };
  counted();
  long a = cilk_spawn inner(v);
  long b = inner(v + 1);
  cilk_sync;
  return a + b;
};

struct Holder {
  static constexpr auto fib = [](auto &self, long n) -> long {
    if (n < 2)
      return n;
    counted();
    long x = cilk_spawn self(self, n - 1);
    long y = self(self, n - 2);
    cilk_sync;
    return x + y;
  };
  std::function<long(long)> field = [](long v) {
    counted();
    long x = cilk_spawn sq(v + 3);
    cilk_sync;
    return x;
  };
};

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 12;
  Holder h;
  for (long n = 0; n <= N; ++n)
    std::printf("%ld %ld %ld %ld %ld %ld\n", plain(n), generic(n),
                generic((int)n), nested(n), Holder::fib(Holder::fib, n),
                h.field(n));
  std::printf("spawn statements %ld\n", SpawnStatements.load());
  std::fflush(stdout);
  return 0;
}
