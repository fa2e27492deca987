// Verify that spawns inside generic lambdas work like spawns in function
// templates: the lambda's templated body is only checked, and each
// instantiation of its call operator is rewritten. Covered: a spawned call
// that depends on an `auto` parameter (a function, a callee passed as
// `auto`, a recursive generic lambda calling itself through `auto &self`, a
// member call on an `auto` object, virtual too), instantiations at several
// types, explicit template parameters, a variadic generic lambda, a call
// that does not depend on `auto`, void spawns in a loop with syncs, the
// implicit sync at the return, the attribute spelling, generic lambdas in a
// function template, in a member function capturing `this` and nested in
// another generic lambda, and a non-generic spawning lambda inside a generic
// one. Against the serial elision; the program counts the spawn statements
// it executes, and at P=1 the runtime must have made exactly that many
// spawns (a silently serial instantiation would make fewer).
// RUN: %clangxx -std=c++20 -O2 %s -o %t.serial
// RUN: %weftcxx -std=c++20 -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 12
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.o2 3 2>&1 | FileCheck %s
// RUN: %weftcxx -std=c++20 -O0 %s -o %t.o0
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

static long sq(long v) { return v * v; }
static long sum3(long a, long b, long c) { return a * 100 + b * 10 + c; }
static void fill(long *out, long v) { *out = 3 * v + 1; }

struct Shape {
  long k;
  explicit Shape(long k) : k(k) {}
  virtual long area(long n) const { return n * k; }
  virtual ~Shape() = default;
};
struct Square : Shape {
  using Shape::Shape;
  long area(long n) const override { return n * n + k; }
};
struct Plain {
  long base;
  long get(long n) const { return base - n; }
};

// The reproducer: the spawned call depends on `auto`.
static long reproducer(long n) {
  auto g1 = [](auto v) {
    counted();
    auto x = cilk_spawn sq(v);
    auto y = sq(v + 1);
    cilk_sync;
    return x + y;
  };
  auto g2 = [](auto f, long v) {
    counted();
    long x = cilk_spawn f(v);
    cilk_sync;
    return x;
  };
  auto gfib = [](auto &self, long v) -> long {
    if (v < 2)
      return v;
    counted();
    long x = cilk_spawn self(self, v - 1);
    long y = self(self, v - 2);
    cilk_sync;
    return x + y;
  };
  return g1(n) + g1((int)n) * 3 + g2(sq, n) * 5 + gfib(gfib, n % 16) * 7;
}

// Several types, explicit template parameters, a variadic lambda, a member
// call on an `auto` object (plain and virtual), and a spawned call that
// does not depend on `auto` at all.
static long types_and_members(long n) {
  auto twice_spawned = []<typename T>(T v) -> T {
    counted();
    T a = cilk_spawn sq(v);
    counted();
    T b = cilk_spawn sq(v + 1);
    cilk_sync;
    return a + b;
  };
  auto variadic = [](auto... args) {
    counted();
    long x = cilk_spawn sum3(args...);
    cilk_sync;
    return x;
  };
  auto on_object = [](const auto &obj, long v) {
    counted();
    long x = cilk_spawn obj.get(v);
    cilk_sync;
    return x;
  };
  auto on_shape = [](const auto *shape, long v) {
    counted();
    long x = cilk_spawn shape->area(v);
    cilk_sync;
    return x;
  };
  auto independent = [](auto tag) {
    counted();
    long x = cilk_spawn sq(7);
    cilk_sync;
    return x + (long)sizeof(tag);
  };
  Square square(n);
  Shape shape(n + 1);
  const Shape *base = &square;
  return twice_spawned(n) + twice_spawned((short)n) * 3 +
         variadic(n, 2L, 3L) * 5 + variadic(1, (short)n, 'a') * 7 +
         on_object(Plain{n * 10}, n) * 11 + on_shape(base, n) * 13 +
         on_shape(&shape, n) * 17 + independent(1) * 19 +
         independent(2.0) * 23;
}

// Void spawns in a loop with periodic syncs, the implicit sync at the
// return, and the attribute spelling.
static long loops_and_spellings(long n) {
  auto fill_all = [](auto *out, long count) {
    for (long i = 0; i < count; ++i) {
      counted();
      cilk_spawn fill(&out[i], i);
      if (i % 3 == 2)
        cilk_sync;
    }
    long s = 0;
    cilk_sync;
    for (long i = 0; i < count; ++i)
      s = s * 7 + out[i];
    return s;
  };
  auto implicit_sync = [](auto v, long *out) {
    counted();
    cilk_spawn fill(out, v);
    // No sync: the one before the return waits for the child.
  };
  auto attribute = [](auto v) {
    counted();
    [[weft::spawn]] long x = sq(v);
    [[weft::sync]];
    return x;
  };
  long buf[16];
  long a = fill_all(buf, n % 16);
  long out = 0;
  implicit_sync(n, &out);
  return a + out * 3 + attribute(n) * 5;
}

// A generic lambda in a function template, instantiated for two types.
template <typename T> static T in_template(T v) {
  auto g = [](auto w) {
    counted();
    auto x = cilk_spawn sq(w);
    cilk_sync;
    return x;
  };
  counted();
  T a = cilk_spawn g(v);
  T b = g(v + 1);
  cilk_sync;
  return a + b;
}

// A generic lambda capturing `this`, one nested in another, and a plain
// spawning lambda inside a generic one.
struct Table {
  long base;
  long scaled(long v) const { return base * v; }
  long run(long n) const {
    auto via_this = [this](auto v) {
      counted();
      long x = cilk_spawn scaled(v);
      counted();
      long y = cilk_spawn this->scaled(v + 1);
      cilk_sync;
      return x + y;
    };
    return via_this(n) + via_this((int)n + 1);
  }
};

static long nested(long n) {
  auto outer = [](auto v) {
    auto inner = [](auto w) {
      counted();
      long x = cilk_spawn sq(w);
      cilk_sync;
      return x;
    };
    auto plain = [](long w) {
      counted();
      long x = cilk_spawn sq(w + 2);
      cilk_sync;
      return x;
    };
    counted();
    long a = cilk_spawn inner(v);
    long b = plain(v);
    cilk_sync;
    return a + b;
  };
  return outer(n) + outer((int)n + 1) * 3;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 12;
  for (long n = 0; n <= N; ++n) {
    std::printf("n=%ld\n", n);
    report("reproducer", reproducer(n));
    report("types_members", types_and_members(n));
    report("loops", loops_and_spellings(n));
    report("template_long", in_template(n));
    report("template_int", in_template((int)n));
    report("this", Table{n + 2}.run(n));
    report("nested", nested(n));
  }
  std::printf("hash %016lx\n", Hash);
  std::printf("spawn statements %ld\n", SpawnStatements.load());
  std::fflush(stdout);
  return 0;
}
