// Verify that a spawned call in a loop gets the arguments its statement
// evaluated, also those passed in memory: a struct too large for registers
// (passed byval: a temporary, a loop-local variable that the continuation
// changes right after the spawn, through a member call, with the result
// stored), classes passed by value that the caller destroys after the call
// (std::string, as a void spawn and with the result stored, and a class
// whose destructor scribbles over it), a std::string temporary bound to a
// const reference in a void spawn, and a struct result returned through
// sret. A thief resuming the continuation runs the next iteration
// in the same coroutine frame while the child still runs: none of these
// objects may be one frame slot for all iterations, and a byval copy must
// be made before the spawn, not by the call after the push. The children
// spin before they read their arguments so that a thief gets there first.
// Also at -O0, where the temporaries' windows are invokes, and under ASan.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <string>

enum { N = 6 };

struct Big { // three words: passed byval on x86-64
  long a, b, c;
};

struct Tagged { // passed by address; the destructor scribbles over it
  long v[2];
  explicit Tagged(long x) : v{x, x * x} {}
  Tagged(const Tagged &o) : v{o.v[0], o.v[1]} {}
  ~Tagged() { v[0] = v[1] = -1; }
};

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 20000; ++i)
    s = s + i;
}

__attribute__((noinline)) static void take_big(long *out, Big v) {
  spin();
  *out = v.a + v.b * 3 + v.c * 7;
}

__attribute__((noinline)) static long sum_big(Big v) {
  spin();
  return v.a * 11 + v.b + v.c;
}

__attribute__((noinline)) static void take_string(long *out, std::string s) {
  spin();
  *out = static_cast<long>(s.size()) * 1000 + s[0] + s[s.size() - 1];
}

__attribute__((noinline)) static long string_code(std::string s) {
  spin();
  return static_cast<long>(s.size()) * 100 + s[1];
}

__attribute__((noinline)) static void take_ref(long *out, const std::string &s) {
  spin();
  *out = static_cast<long>(s.size()) * 10 + s[2];
}

__attribute__((noinline)) static void take_tagged(long *out, Tagged t) {
  spin();
  *out = t.v[0] * 5 + t.v[1];
}

__attribute__((noinline)) static Big make_big(long i) {
  spin();
  return {i, i + 1, i * i};
}

struct Sink {
  long base;
  __attribute__((noinline)) void put(long *out, Big v) const {
    spin();
    *out = base + v.a - v.c;
  }
};

static long fold(const long *r) {
  long h = 0;
  for (long i = 0; i < N; ++i)
    h = h * 131 + r[i];
  return h;
}

long byval_temporaries(long k) {
  long r[N];
  for (long i = 0; i < N; ++i)
    cilk_spawn take_big(r + i, Big{i + k, 10 * i, 100 * i});
  cilk_sync;
  return fold(r);
}

long byval_variable(long k) {
  long r[N];
  for (long i = 0; i < N; ++i) {
    Big b = {i, k, i * k};
    cilk_spawn take_big(r + i, b);
    b.a = -1000; // after the spawn: the child has its copy already
    b.c = -1000;
  }
  cilk_sync;
  return fold(r);
}

long byval_results(long k) {
  long r[N];
  for (long i = 0; i < N; ++i)
    r[i] = cilk_spawn sum_big(Big{k, i, i * 3});
  cilk_sync;
  return fold(r);
}

long byval_member(long k) {
  long r[N];
  Sink sink{k * 1000};
  for (long i = 0; i < N; ++i)
    cilk_spawn sink.put(r + i, Big{i, 0, 2 * i + k});
  cilk_sync;
  return fold(r);
}

long string_values(long k) {
  long r[N];
  for (long i = 0; i < N; ++i)
    cilk_spawn take_string(r + i, std::string(20 + i + k % 7, static_cast<char>('a' + i)) + "!");
  cilk_sync;
  return fold(r);
}

long string_results(long k) {
  long r[N];
  for (long i = 0; i < N; ++i)
    r[i] = cilk_spawn string_code(std::to_string(k * 100000 + i) + " a tail past SSO");
  cilk_sync;
  return fold(r);
}

long string_references(long k) {
  long r[N];
  for (long i = 0; i < N; ++i)
    cilk_spawn take_ref(r + i, std::string(30 + i, static_cast<char>('m' + (i + k) % 8)));
  cilk_sync;
  return fold(r);
}

long tagged_values(long k) {
  long r[N];
  for (long i = 0; i < N; ++i)
    cilk_spawn take_tagged(r + i, Tagged(i * 7 + k));
  cilk_sync;
  return fold(r);
}

long sret_results(long k) {
  Big r[N];
  for (long i = 0; i < N; ++i)
    r[i] = cilk_spawn make_big(i + k);
  cilk_sync;
  long h = 0;
  for (const Big &b : r)
    h = h * 31 + b.a + b.b * 3 + b.c * 5;
  return h;
}

int main() {
  for (long k = 0; k < 12; ++k)
    std::printf("%ld: %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", k, byval_temporaries(k),
                byval_variable(k), byval_results(k), byval_member(k), string_values(k),
                string_results(k), string_references(k), tagged_values(k), sret_results(k));
}
