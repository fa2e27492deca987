// Verify spawns of member functions (implicit this, this->, obj., ptr->),
// virtual calls through a reference and a pointer, a function object's
// operator() and a lambda, against the serial elision.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <cstdio>
struct Base { long k = 1; virtual long eval(long n) const { return n * k; } virtual ~Base() = default; };
struct Fib : Base {
  long calls = 0;
  long fib(long n) {
    if (n < 2) return n;
    long x = cilk_spawn fib(n - 1);            // implicit this
    long y = cilk_spawn this->fib(n - 2);
    cilk_sync;
    return x + y;
  }
  long eval(long n) const override { return n + 100; }
};
struct Adder { long base; long operator()(long v) const { return base + v; } };
long run(Fib &f, const Base &b, const Base *pb, Adder add, long n) {
  long a = cilk_spawn f.fib(n);
  long c = cilk_spawn b.eval(n);
  long d = cilk_spawn pb->eval(n + 1);
  long e = cilk_spawn add(n);
  auto lam = [n](long m) { return n * m; };
  long g = cilk_spawn lam(3);
  cilk_sync;
  return a + c + d + e + g;
}
int main() {
  Fib f; Base b;
  for (long n = 0; n < 22; ++n) printf("%ld %ld\n", n, run(f, f, &b, Adder{7}, n));
}
