// Verify spawns in template instantiations whose statements Clang shares
// with the template instead of copying them (nothing in them depends on a
// template parameter): member calls through `this` in member function
// templates (implicit and explicit `this`, const and not, no arguments or
// exact-type literal arguments), a body with nothing dependent at all, a
// spawn inside `do { } while (0)`, a nested block, `for (;;)` and a try
// block, a spawned result assigned to a data member and to a global, a
// member call on a global object, each function instantiated for several
// types, plus a class template's member. Each instantiation must spawn
// (not change the template, which made the next instantiation fail to
// compile, nor be skipped as already rewritten, which made it run
// serially): against the serial elision, and at P=1 the runtime must make
// exactly as many spawns as the program counts spawn statements.
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

static std::atomic<long> SpawnStatements{0};
// Counts one spawn statement, in the parent, just before it.
static void counted() { SpawnStatements.fetch_add(1, std::memory_order_relaxed); }

static unsigned long Hash = 1469598103934665603ul;
static void report(const char *what, long v) {
  Hash = (Hash ^ (unsigned long)v) * 1099511628211ul;
  std::printf("%-16s %ld\n", what, v);
}

struct Counter {
  long base;
  long hits[8] = {};
  long total = 0;
  explicit Counter(long base) : base(base) {}
  // Each writes its own slot, so children of one frame never race.
  void step() { hits[0] += base; }
  void step_other() { hits[1] += base + 1; }
  void step_more() { hits[2] += base + 2; }
  void step_try() { hits[3] += base + 3; }
  long get() const { return base * 3 + 1; }
  long scaled(long k) const { return base * k; }

  // Nothing depends on T: the whole body is the template's.
  template <typename T> void only_this() {
    counted();
    cilk_spawn step();
    cilk_sync;
  }
  // A dependent argument; the member call's callee is the template's.
  template <typename T> long implicit_this(T v) const {
    counted();
    long x = cilk_spawn scaled(v);
    counted();
    long y = cilk_spawn this->scaled(3L);
    cilk_sync;
    return x + y;
  }
  // Statements that wrap a spawn without depending on T.
  template <typename T> long wrapped(T v) {
    do {
      counted();
      cilk_spawn step_other();
    } while (0);
    {
      counted();
      cilk_spawn step_more();
    }
    for (;;) {
      counted();
      total = cilk_spawn get();
      break;
    }
    try {
      counted();
      cilk_spawn step_try();
    } catch (...) {
    }
    cilk_sync;
    return total + (long)v;
  }
};

static Counter Shared(7);
static long Global = 0;

template <typename T> long on_global(T v) {
  counted();
  long x = cilk_spawn Shared.scaled(5L);
  counted();
  Global = cilk_spawn Shared.get();
  cilk_sync;
  return x + Global + (long)v;
}

template <typename T> struct Box {
  T value;
  T get() const { return value * 2; }
  T twice() const {
    counted();
    T a = cilk_spawn get();
    counted();
    T b = cilk_spawn this->get();
    cilk_sync;
    return a + b;
  }
};

static long run(long n) {
  Counter c(n);
  c.only_this<int>();
  c.only_this<long>();
  c.only_this<char>();
  long a = c.implicit_this(n) + c.implicit_this((int)n) * 3 +
           c.implicit_this((short)n) * 5;
  long b = c.wrapped(n) + c.wrapped(1.5) * 7;
  long d = on_global(n) + on_global((int)n) * 11;
  long e = Box<long>{n}.twice() + Box<int>{(int)n}.twice() * 13;
  long h = 0;
  for (long v : c.hits)
    h = h * 31 + v;
  return a + b * 17 + d * 19 + e * 23 + h * 29;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 12;
  for (long n = 0; n <= N; ++n)
    report("run", run(n));
  std::printf("hash %016lx\n", Hash);
  std::printf("spawn statements %ld\n", SpawnStatements.load());
  std::fflush(stdout);
  return 0;
}
