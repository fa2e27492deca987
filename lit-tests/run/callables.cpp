// Verify spawns of every kind of callable against the serial elision:
// std::function objects (a member operator() call: a recursive one, a table
// of them spawned in a loop, one received by reference), lambdas capturing
// by value, by reference (children writing distinct captured locals), `this`
// and mutable state, lambdas whose bodies spawn, generic lambdas at several
// types (also as the callee in a spawning function template), a spawning
// function template instantiated for int, long, double and a user struct, a
// member function template, member functions (static, const, non-const,
// recursive through obj., ptr-> and implicit this), virtual calls through a
// base pointer (an override that spawns; a second base reached through a
// this-adjusting thunk), calls through function pointers (a table, a pointer
// returned by a call, a reference to a function), default arguments, and
// implicit argument conversions (int -> long, float -> double, Derived* ->
// Base* with pointer adjustment, converting constructors for by-value class
// parameters, one passed in registers and one in memory); also under
// AddressSanitizer.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 17
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 17
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 17
// Spawns inside generic lambdas: run/generic_lambdas.cpp. Temporaries in
// spawned statements: run/spawn_temporaries.cpp.
// Calls through pointers to member functions: run/member_pointers.cpp.
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

static unsigned long Hash = 1469598103934665603ul;
static void mix(long v) { Hash = (Hash ^ (unsigned long)v) * 1099511628211ul; }
static void report(const char *what, long v) {
  mix(v);
  std::printf("%-14s %ld\n", what, v);
}

static long leaf(long n) { return 3 * n + 1; }
static long square(long n) { return n * n; }
static long cube(long n) { return n * n * n; }
static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

// ---- std::function ---------------------------------------------------------

// A spawning function that recurses through a global std::function.
static std::function<long(long)> FnFib;
static long fn_fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn FnFib(n - 1);
  long y = cilk_spawn FnFib(n - 2);
  cilk_sync;
  return x + y;
}

// A table of std::function objects of different origins, spawned in a loop
// into distinct slots, and one received by const reference.
static long fn_table(long n, const std::function<long(long)> &extra) {
  long k = n % 5 + 2;
  std::vector<std::function<long(long)>> table;
  table.push_back(leaf);                                // function
  table.push_back([k](long v) { return v * k; });       // lambda by value
  table.push_back(fib);                                 // spawning function
  table.push_back([&table](long v) { return v + (long)table.size(); });
  table.push_back(std::function<long(long)>(cube));
  long out[8];
  for (int i = 0; i < 5; ++i)
    out[i] = cilk_spawn table[i](n + i);
  out[5] = cilk_spawn extra(n);
  std::function<long(long)> local = square;
  out[6] = cilk_spawn local(n + 1);
  out[7] = leaf(n);
  cilk_sync;
  long s = 0;
  for (long v : out)
    s = s * 131 + v;
  return s;
}

// ---- lambdas ---------------------------------------------------------------

struct Counter {
  long base;
  long total = 0;
  // A lambda capturing `this` is spawned from a member function.
  long run(long n) {
    auto add = [this](long v) { return base + v; };
    long a = cilk_spawn add(n);
    long b = cilk_spawn add(2 * n);
    cilk_sync;
    total += a + b;
    return total;
  }
};

static long lambdas(long n) {
  long k = n + 7, m = 3;
  auto by_value = [k, m](long v) { return v * k + m; };
  long acc1 = 0, acc2 = 0, acc3 = 0;
  // Each child writes its own captured-by-reference local.
  auto into1 = [&acc1](long v) { for (long i = 0; i <= v; ++i) acc1 += i; };
  auto into2 = [&acc2, k](long v) { acc2 = v * k; };
  auto into_all = [&](long v) { acc3 = v * m + acc3; };  // k is not read
  // Mutable state in the closure, touched only by the child before the sync.
  auto stateful = [calls = 0L](long v) mutable { calls += v; return calls * 2; };
  // A lambda whose body spawns.
  auto spawning = [](long v) -> long {
    long x = cilk_spawn fib(v);
    long y = cilk_spawn fib(v + 1);
    cilk_sync;
    return x * 1000 + y;
  };
  long a = cilk_spawn by_value(n);
  cilk_spawn into1(n);
  cilk_spawn into2(n + 1);
  cilk_spawn into_all(n + 2);
  long s = cilk_spawn stateful(n);
  long t = cilk_spawn spawning(n % 20);
  k = -1;  // by_value and into2 hold their own copies of k
  cilk_sync;
  long s2 = stateful(1);  // sees the child's update of `calls`
  Counter c{n};
  long u = c.run(n);
  return a + acc1 * 3 + acc2 * 5 + acc3 * 7 + s * 11 + s2 * 13 + t * 17 + u * 19;
}

// ---- generic lambdas -------------------------------------------------------

struct Vec2 {
  long x, y;
};
static Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
static Vec2 operator*(Vec2 a, long k) { return {a.x * k, a.y * k}; }

// A spawning function template whose callee is its template parameter (a
// generic lambda here).
template <typename F, typename T> T apply_twice(const F &f, T v) {
  T a = cilk_spawn f(v);
  T b = f(v + 1);
  cilk_sync;
  return a + b;
}

static long generic_lambdas(long n) {
  auto twice = [](auto v) { return v + v; };
  auto scale = [](auto v, long k) { return v * k; };
  auto scale_by_3 = [](auto v) { return v * 3; };
  long a = cilk_spawn twice(n);
  int b = cilk_spawn twice((int)n);
  double c = cilk_spawn twice(n * 0.25);
  Vec2 d = cilk_spawn twice(Vec2{n, -n});
  Vec2 e = cilk_spawn scale(Vec2{1, n}, n);
  long f = cilk_spawn apply_twice(twice, n);
  double g = cilk_spawn apply_twice(scale_by_3, 0.125 * (double)n);
  cilk_sync;
  return a + b * 3 + (long)(c * 8) * 5 + d.x * 7 + d.y * 11 + e.x * 13 +
         e.y * 17 + f * 19 + (long)(g * 64) * 23;
}

// ---- function templates ----------------------------------------------------

struct Money {
  long cents;
  int moves;
};
static Money operator+(Money a, Money b) {
  return {a.cents + b.cents, a.moves + b.moves + 1};
}

// Divide-and-conquer reduction; the tree shape is fixed, so even the double
// sum is bit-identical to the serial elision.
template <typename T> T reduce(const T *a, long lo, long hi) {
  if (hi - lo == 1)
    return a[lo];
  long mid = lo + (hi - lo) / 2;
  T left = cilk_spawn reduce<T>(a, lo, mid);
  T right = cilk_spawn reduce(a, mid, hi);  // deduced
  cilk_sync;
  return left + right;
}

template <int K> long power(long v) {
  long r = 1;
  for (int i = 0; i < K; ++i)
    r *= v;
  return r;
}

static long templates(long n) {
  long len = 64 + n * 13;
  std::vector<int> ints(len);
  std::vector<long> longs(len);
  std::vector<double> doubles(len);
  std::vector<Money> money(len);
  for (long i = 0; i < len; ++i) {
    ints[i] = (int)((i * 7919 + n) % 1000) - 500;
    longs[i] = i * i * 100003 + n;
    doubles[i] = 1.0 / (double)(i + 1 + n);
    money[i] = {i % 97 + n, 0};
  }
  int a = cilk_spawn reduce(ints.data(), 0, len);
  long b = cilk_spawn reduce(longs.data(), 0, len);
  double c = cilk_spawn reduce(doubles.data(), 0, len);
  Money d = cilk_spawn reduce<Money>(money.data(), 0, len);
  long e = cilk_spawn power<3>(n);
  long f = cilk_spawn power<5>(n);
  cilk_sync;
  std::printf("  reduce doubles %.17g\n", c);
  return a + b * 3 + (long)(c * 1e12) * 5 + d.cents * 7 + d.moves * 11 + e * 13 + f * 17;
}

// ---- member functions ------------------------------------------------------

struct Tree {
  long weight;
  static long combine(long a, long b) { return a * 3 + b; }
  long value(long n) const { return n * weight; }
  void bump(long by) { weight += by; }
  template <typename T> T scaled(T v) const { return v * (T)weight; }
  // Recursive member function spawning through implicit this, this-> and a
  // second object.
  long sum(long depth, const Tree &other) const {
    if (depth <= 0)
      return weight + other.weight;
    long a = cilk_spawn sum(depth - 1, other);
    long b = cilk_spawn this->sum(depth - 2, other);
    long c = cilk_spawn other.value(depth);
    cilk_sync;
    return combine(a, b) % 1000003 + c;
  }
};

static long members(long n) {
  Tree t{n + 1}, u{2}, w{5};
  Tree *pu = &u, *pw = &w;
  const Tree &rt = t;
  long a = cilk_spawn t.sum(n % 16, u);
  long b = cilk_spawn Tree::combine(n, n + 1);
  long c = cilk_spawn pu->value(n);
  long d = cilk_spawn rt.scaled(n);
  double e = cilk_spawn rt.scaled(0.5 * (double)n);
  cilk_spawn pw->bump(n);  // writes w.weight; w is not read until the sync
  cilk_sync;
  return a + b * 3 + c * 5 + d * 7 + (long)(e * 2) * 11 + w.weight * 13;
}

// ---- virtual calls ---------------------------------------------------------

struct Shape {
  virtual long area(long n) const = 0;
  virtual ~Shape() = default;
};
struct Square : Shape {
  long area(long n) const override { return n * n; }
};
struct Rect : Shape {
  long w;
  explicit Rect(long w) : w(w) {}
  long area(long n) const override { return n * w; }
};
// An override that itself spawns.
struct Fractal : Shape {
  long area(long n) const override {
    if (n < 2)
      return 1;
    long a = cilk_spawn area(n - 1);
    long b = cilk_spawn area(n - 2);
    cilk_sync;
    return a + b + 1;
  }
};
struct Named {
  long id = 40;
  virtual long tag(long n) const { return id + n; }
  virtual ~Named() = default;
};
// Through the second base, the call goes through a this-adjusting thunk.
struct Both : Shape, Named {
  long area(long n) const override { return 2 * n; }
  long tag(long n) const override { return id * 100 + n; }
};

static long virtuals(long n) {
  Square sq;
  Rect re(n % 7 + 1);
  Fractal fr;
  Both bo;
  const Shape *shapes[4] = {&sq, &re, &fr, &bo};
  const Named *named = &bo;
  long out[6];
  for (int i = 0; i < 4; ++i)
    out[i] = cilk_spawn shapes[i]->area(n + i);
  out[4] = cilk_spawn named->tag(n);
  const Shape &ref = fr;
  out[5] = cilk_spawn ref.area(n % 18);
  cilk_sync;
  long s = 0;
  for (long v : out)
    s = s * 1009 + v;
  return s;
}

// ---- function pointers -----------------------------------------------------

typedef long (*Fn)(long);
static Fn pick(long n) { return (n & 1) ? cube : fib; }

static long pointers(long n) {
  Fn table[4] = {leaf, square, cube, fib};
  long out[7];
  for (int i = 0; i < 4; ++i)
    out[i] = cilk_spawn table[(i + n) % 4](n % 20 + i);
  out[4] = cilk_spawn pick(n)(n % 20);  // the callee comes from a call
  long (&fref)(long) = square;
  out[5] = cilk_spawn fref(n);
  Fn fp = &leaf;
  out[6] = cilk_spawn (*fp)(n);
  cilk_sync;
  long s = 0;
  for (long v : out)
    s = s * 1013 + v;
  return s;
}

// ---- default arguments and implicit conversions ---------------------------

static long scaled(long v, long k = 3, long off = -7) { return v * k + off; }
static double hyp(double x, double y = 1.5) { return x * x + y * y; }
static long area_of(const Shape *s, long n) { return s->area(n); }
static long tag_of(const Named *p, long n) { return p ? p->tag(n) : -1; }

// A class with a converting constructor, passed by value.
struct Meters {
  long mm;
  Meters(long m) : mm(m * 1000) {}
};
struct Wide {
  long v[5];
  Wide(int seed) : v{seed, seed * 2, seed * 3, seed * 4, seed * 5} {}
};
static long length_of(Meters m) { return m.mm + 1; }
static long wide_sum(Wide w) { return w.v[0] + w.v[1] + w.v[2] + w.v[3] + w.v[4]; }

static long conversions(long n) {
  int i = (int)n;
  float f = 0.5f + (float)n;
  Both both;
  Rect rect(3);
  long a = cilk_spawn scaled(i);          // int -> long, two defaults
  long b = cilk_spawn scaled(i, 2);       // one default
  long c = cilk_spawn scaled(n, i, i);    // none
  double d = cilk_spawn hyp(f);           // float -> double, a default
  double e = cilk_spawn hyp(f, f * 2);    // float expression -> double
  long g = cilk_spawn area_of(&rect, n);  // Rect* -> const Shape*
  long h = cilk_spawn tag_of(&both, n);   // Both* -> const Named* (adjusted)
  long k = cilk_spawn length_of(n);       // long -> Meters by value
  long m = cilk_spawn length_of(i);       // int -> long -> Meters
  long p = cilk_spawn wide_sum(i);        // int -> Wide, passed in memory
  short q = cilk_spawn scaled(i, 1, 0);   // result narrowed to short
  double r = cilk_spawn scaled(n);        // result widened to double
  cilk_sync;
  return a + b * 3 + c * 5 + (long)(d * 4) * 7 + (long)(e * 4) * 11 + g * 13 +
         h * 17 + k * 19 + m * 23 + p * 29 + q * 31 + (long)r * 37;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 17;
  FnFib = fn_fib;
  std::function<long(long)> extra = [N](long v) { return v * N; };
  for (long n = 0; n <= N; ++n) {
    std::printf("n=%ld\n", n);
    report("fn_fib", fn_fib(n));
    report("fn_table", fn_table(n, extra));
    report("lambdas", lambdas(n));
    report("generic", generic_lambdas(n));
    report("templates", templates(n));
    report("members", members(n));
    report("virtuals", virtuals(n));
    report("pointers", pointers(n));
    report("conversions", conversions(n));
  }
  std::printf("hash %016lx\n", Hash);
  return 0;
}
