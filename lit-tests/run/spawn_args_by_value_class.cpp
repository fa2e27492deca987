// Verify that a spawned call in a loop that takes by value a class that is
// not trivial for calls (a user-written copy constructor) but has a trivial
// destructor gets its own argument in every iteration. The caller builds such
// an argument in a temporary and passes its address; nothing destroys it
// after the call, so only the front end can tell it from a named variable
// (plugin/frontend/ArgumentLayout.cpp). Were it one frame slot for all iterations, a
// thief's next iteration would construct its argument there while the
// earlier child still reads its own. Covered: a free function, a named
// variable copied into the argument, a member function, a lambda, a
// function pointer, a virtual call, a struct result returned through sret,
// and the class placed after and before small and large struct arguments
// (whose IR arguments the front end cannot count). The children spin before
// they read their arguments so that a thief gets there first. The UBSan
// build checks that the sanitizer's checks of the temporary and of the
// object (a use of its address as an integer, an objectsize call) neither
// hide the temporary nor the member call: before, it did not compile.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
// RUN: %weftcxx -O2 -fsanitize=undefined -fno-sanitize-recover=all %s -o %t.ubsan
// RUN: %run-check %t.ubsan %t.serial
#include <cilk/cilk.h>
#include <cstdio>

enum { N = 8 };

struct Tagged {
  long v[2];
  explicit Tagged(long x) : v{x, x * x} {}
  Tagged(const Tagged &o) : v{o.v[0], o.v[1]} {}
  long value() const { return v[0] * 50 + v[1]; }
};

struct Small { // two words: passed in registers
  long a, b;
};
struct Large { // three words: passed byval
  long a, b, c;
};

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 20000; ++i)
    s = s + i;
}

__attribute__((noinline)) static void take(long *out, Tagged t) {
  spin();
  *out = t.value();
}

__attribute__((noinline)) static void after_structs(Small s, Large l,
                                                    long *out, Tagged t) {
  spin();
  *out = t.value() + s.a + s.b + l.a + l.b + l.c;
}

__attribute__((noinline)) static void before_structs(Tagged t, long *out,
                                                     Small s, Large l) {
  spin();
  *out = t.value() * 3 + s.a - s.b + l.c;
}

__attribute__((noinline)) static Large make(Tagged t) {
  spin();
  return Large{t.v[0], t.v[1], t.value()};
}

struct Sink {
  long bias;
  __attribute__((noinline)) void put(long *out, Tagged t) {
    spin();
    *out = t.value() + bias;
  }
};

struct Base {
  virtual ~Base() = default;
  virtual void put(long *out, Tagged t) = 0;
};
struct Derived : Base {
  __attribute__((noinline)) void put(long *out, Tagged t) override {
    spin();
    *out = t.value() - 7;
  }
};

static void print(const char *what, const long *r) {
  std::printf("%s:", what);
  for (int i = 0; i < N; ++i)
    std::printf(" %ld", r[i]);
  std::printf("\n");
}

int main() {
  long r[N];
  for (long i = 0; i < N; ++i)
    cilk_spawn take(r + i, Tagged(i));
  cilk_sync;
  print("temporary", r);

  for (long i = 0; i < N; ++i) {
    Tagged named(i + 1);
    cilk_spawn take(r + i, named);
  }
  cilk_sync;
  print("copy of a named variable", r);

  Sink sink{1000};
  for (long i = 0; i < N; ++i)
    cilk_spawn sink.put(r + i, Tagged(i + 2));
  cilk_sync;
  print("member function", r);

  auto lambda = [](long *out, Tagged t) {
    spin();
    *out = -t.value();
  };
  for (long i = 0; i < N; ++i)
    cilk_spawn lambda(r + i, Tagged(i + 3));
  cilk_sync;
  print("lambda", r);

  void (*pointer)(long *, Tagged) = take;
  for (long i = 0; i < N; ++i)
    cilk_spawn pointer(r + i, Tagged(i + 4));
  cilk_sync;
  print("function pointer", r);

  Derived derived;
  Base *base = &derived;
  for (long i = 0; i < N; ++i)
    cilk_spawn base->put(r + i, Tagged(i + 5));
  cilk_sync;
  print("virtual call", r);

  for (long i = 0; i < N; ++i)
    cilk_spawn after_structs(Small{i, 2 * i}, Large{i, i, i}, r + i,
                             Tagged(i + 6));
  cilk_sync;
  print("after struct arguments", r);

  for (long i = 0; i < N; ++i)
    cilk_spawn before_structs(Tagged(i + 7), r + i, Small{i, 1}, Large{0, 0, i});
  cilk_sync;
  print("before struct arguments", r);

  Large results[N];
  for (long i = 0; i < N; ++i)
    results[i] = cilk_spawn make(Tagged(i + 8));
  cilk_sync;
  for (long i = 0; i < N; ++i)
    r[i] = results[i].a + results[i].b * 3 + results[i].c * 5;
  print("struct result", r);
}
