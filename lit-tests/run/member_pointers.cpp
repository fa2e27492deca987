// Verify spawns of calls through pointers to member functions,
// `cilk_spawn (obj.*pm)(n)` and `cilk_spawn (ptr->*pm)(n)`: non-virtual and
// virtual targets (the pointer's virtual bit picks the override at the
// call), a member of a second base reached through a this-adjusting
// pointer, const members on const objects, `*this` and `this->*`, a table
// of member pointers spawned in a loop, a struct result returned in memory,
// a void member writing its own slot, a temporary object (destroyed by the
// child), member pointers in a function
// template and in a member function template, and a pointer to a data
// member that holds a function pointer. Against the serial elision; at P=1
// the runtime must make exactly as many spawns as the program counts spawn
// statements (each spawned call is marked exactly once).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 12
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.o2 3 2>&1 | FileCheck %s
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 12
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.o0 3 2>&1 | FileCheck %s
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 8
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
  std::printf("%-12s %ld\n", what, v);
}

struct Pair {
  long a, b, c, d; // returned in memory (sret)
};

struct Shape {
  long k;
  explicit Shape(long k) : k(k) {}
  virtual ~Shape() = default;
  virtual long area(long n) const { return n * k; }
  long plain(long n) const { return n + k; }
  long fib(long n) {
    if (n < 2)
      return n;
    long (Shape::*self)(long) = &Shape::fib;
    counted();
    long x = cilk_spawn (this->*self)(n - 1);
    long y = (*this.*self)(n - 2);
    cilk_sync;
    return x + y;
  }
};

struct Named {
  long id = 5;
  virtual ~Named() = default;
  virtual long tag(long n) const { return id * 100 + n; }
};

struct Square : Shape, Named {
  explicit Square(long k) : Shape(k) {}
  long area(long n) const override { return n * n + k; }
  long tag(long n) const override { return id * 1000 + n + k; }
  Pair corners(long n) const { return {n, n + k, n * 2, k}; }
  void fill(long n, long *out) const { *out = n * k + 3; }
};

long (*const Scale)(long) = [](long n) { return n * 7; };
struct Holder {
  long (*fn)(long) = Scale;
};

static long direct(long n) {
  Square sq(n % 5 + 1);
  const Shape &shape = sq;
  const Square *ptr = &sq;
  long (Shape::*virt)(long) const = &Shape::area; // virtual: calls Square::area
  long (Shape::*plain)(long) const = &Shape::plain;
  long (Square::*second)(long) const = &Named::tag; // this-adjusting
  Pair (Square::*corners)(long) const = &Square::corners;
  void (Square::*fill)(long, long *) const = &Square::fill;
  long out = 0;
  counted();
  long a = cilk_spawn (shape.*virt)(n);
  counted();
  long b = cilk_spawn (ptr->*virt)(n + 1);
  counted();
  long c = cilk_spawn (shape.*plain)(n + 2);
  counted();
  long d = cilk_spawn (ptr->*second)(n + 3);
  counted();
  Pair e = cilk_spawn (sq.*corners)(n);
  counted();
  cilk_spawn (ptr->*fill)(n, &out);
  counted();
  long g = cilk_spawn (Square(n + 2).*virt)(n);
  long f = sq.fib(n % 12);
  cilk_sync;
  return a + b * 3 + c * 5 + d * 7 + (e.a + e.b * 2 + e.c * 3 + e.d * 4) * 11 +
         out * 13 + f * 17 + g * 19;
}

static long table(long n) {
  Square sq(n % 3 + 2);
  long (Square::*methods[])(long) const = {&Square::area, &Shape::plain,
                                           &Square::tag, &Named::tag};
  long out[4];
  for (int i = 0; i < 4; ++i) {
    counted();
    out[i] = cilk_spawn (sq.*methods[i])(n + i);
  }
  cilk_sync;
  return out[0] + out[1] * 3 + out[2] * 5 + out[3] * 7;
}

template <typename T>
static long in_template(const Square *s, long (Square::*pm)(long) const,
                        T v) {
  counted();
  long x = cilk_spawn (s->*pm)(v);
  counted();
  long y = cilk_spawn (*s.*pm)((long)v + 1);
  cilk_sync;
  return x + y;
}

struct Runner {
  long base;
  long twice(long n) const { return (base + n) * 2; }
  template <typename T> long run(T v) const {
    long (Runner::*pm)(long) const = &Runner::twice;
    counted();
    long x = cilk_spawn (this->*pm)(v);
    counted();
    long y = cilk_spawn (*this.*pm)(v + 1);
    cilk_sync;
    return x + y;
  }
};

static long data_member(long n) {
  Holder h;
  long (*Holder::*field)(long) = &Holder::fn;
  counted();
  long x = cilk_spawn (h.*field)(n);
  cilk_sync;
  return x;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 12;
  for (long n = 0; n <= N; ++n) {
    std::printf("n=%ld\n", n);
    report("direct", direct(n));
    report("table", table(n));
    Square sq(n + 1);
    report("template", in_template(&sq, &Square::area, n) +
                           in_template(&sq, &Square::tag, (int)n) * 3);
    report("member_tpl", Runner{n}.run(n) + Runner{n}.run((int)n) * 3);
    report("data_member", data_member(n));
  }
  std::printf("hash %016lx\n", Hash);
  std::printf("spawn statements %ld\n", SpawnStatements.load());
  std::fflush(stdout);
  return 0;
}
