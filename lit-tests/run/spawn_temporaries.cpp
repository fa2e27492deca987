// Verify that temporaries made for a spawned statement live until the
// spawned call returns, as in the serial elision: a temporary bound to a
// const-reference argument, one made by a converting constructor, a
// std::string argument (result stored, and in a void spawn), a class with a
// destructor that scribbles over its buffer, and a temporary callee object
// (a function object, an immediately invoked lambda). The destructors are
// the child's part of the statement: they must neither run before the call
// nor in the continuation, where a thief would free what the child reads.
// The children spin so that a thief has time to get there.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 20000; ++i)
    s = s + i;
}

__attribute__((noinline)) static long triple(const long &x) {
  spin();
  return x * 3;
}

struct Meters {
  long v[4];
  Meters(long x) : v{x, x + 1, x + 2, x + 3} {}
};
__attribute__((noinline)) static long weigh(const Meters &m) {
  spin();
  return m.v[0] * 7 + m.v[3];
}

static long digest(const std::string &s) {
  spin();
  long sum = 0;
  for (char c : s)
    sum = sum * 31 + c;
  return sum;
}
static void digest_into(const std::string &s, long *out) { *out = digest(s); }

struct Name { // its destructor wipes and frees the buffer
  char *p;
  Name(const char *s) : p(strdup(s)) {}
  ~Name() {
    std::memset(p, 'X', std::strlen(p));
    std::free(p);
  }
};
static long length(const Name &n) {
  spin();
  return n.p[0] == 'h' ? (long)std::strlen(n.p) : -1000;
}

struct Adder {
  long base;
  long pad[3];
  __attribute__((noinline)) long operator()(long v) const {
    spin();
    return base + v;
  }
};

long arguments(long n) {
  long a = cilk_spawn triple(n + 1);
  long b = cilk_spawn weigh(n); // Meters(n) converts the argument
  long c = cilk_spawn digest(std::string(40, 'a' + n % 26));
  long d = cilk_spawn length("hello");
  long e;
  e = cilk_spawn digest("an assigned result, string longer than SSO");
  cilk_sync;
  return a + b + c + d + e;
}

long void_spawns(long n) {
  long a = 0, b = 0;
  cilk_spawn digest_into(std::string(40, 'a' + n % 26), &a);
  cilk_spawn digest_into("a string literal longer than the SSO buffer", &b);
  cilk_sync;
  return a ^ b;
}

long callee_objects(long n) {
  long a = cilk_spawn Adder{n * 2, {}}(n);
  long b = cilk_spawn [n](long m) __attribute__((noinline)) {
    spin();
    return n * m + 1;
  }(5);
  cilk_sync;
  return a + b * 1000;
}

long in_a_loop(long n) {
  long r[8];
  for (long i = 0; i < 8; ++i)
    r[i] = cilk_spawn digest(std::to_string(n * 1000 + i) + " and a long tail");
  cilk_sync;
  long sum = 0;
  for (long x : r)
    sum ^= x;
  return sum;
}

int main() {
  for (long n = 0; n < 40; ++n)
    std::printf("%ld %ld %ld %ld %ld\n", n, arguments(n), void_spawns(n),
                callee_objects(n), in_a_loop(n));
}
