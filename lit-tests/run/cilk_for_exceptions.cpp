// Verify that an exception thrown in a cilk_for body propagates out of the
// loop once the other iterations are done, as for spawned children: caught
// around the loop, in a caller, or by a try block inside the body; thrown
// by several iterations at once (one propagates, the others are
// destroyed); thrown by a spawned child of an iteration, by a nested
// cilk_for, by an iterator's operator, and while the loop sits in scopes
// with destructors. Every object is destroyed exactly once, and nothing
// leaks (LeakSanitizer, through AddressSanitizer).
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
#include <stdexcept>
#include <string>
#include <vector>

static std::atomic<long> live{0};

struct Tracked {
  std::string name;
  explicit Tracked(long i) : name("t" + std::to_string(i)) { ++live; }
  Tracked(const Tracked &o) : name(o.name) { ++live; }
  ~Tracked() { --live; }
};

struct Boom : std::runtime_error {
  using std::runtime_error::runtime_error;
};

long maybe_throw(long i, long at) {
  if (i == at)
    throw Boom("child " + std::to_string(i));
  return i;
}

void one_thrower(long n, long at) {
  Tracked outer(-1);
  std::vector<long> done(n);
  cilk_for (long i = 0; i < n; ++i) {
    Tracked t(i);
    if (i == at)
      throw Boom("iteration " + std::to_string(i));
    done[i] = 1;
  }
  std::printf("not reached\n");
}

void many_throwers(long n) {
  cilk_for (long i = 0; i < n; ++i) {
    Tracked t(i);
    if (i % 100 == 99)
      throw Boom("a hundredth"); // same message from every thrower
  }
}

long spawned_child_throws(long n, long at) {
  std::vector<long> r(n);
  cilk_for (long i = 0; i < n; ++i) {
    Tracked t(i);
    long x = cilk_spawn maybe_throw(i, at);
    long y = maybe_throw(i + 1, -1);
    cilk_sync;
    r[i] = x + y;
  }
  return r[0];
}

void nested_throws(int n) {
  cilk_for (int i = 0; i < n; ++i)
    cilk_for (int j = 0; j < n; ++j) {
      Tracked t(i * n + j);
      if (i == n / 2 && j == n / 3)
        throw Boom("nested " + std::to_string(i) + "," + std::to_string(j));
    }
}

long caught_inside(long n) {
  std::atomic<long> caught{0};
  cilk_for (long i = 0; i < n; ++i) {
    try {
      Tracked t(i);
      maybe_throw(i % 10, 3);
    } catch (Boom &) {
      ++caught;
    }
  }
  return caught;
}

// An iterator whose dereference throws on one element.
struct Checked {
  const long *p;
  long operator*() const {
    if (*p < 0)
      throw Boom("negative at " + std::to_string(-*p));
    return *p;
  }
  Checked operator+(long k) const { return {p + k}; }
  long operator-(const Checked &o) const { return p - o.p; }
  Checked &operator++() { ++p; return *this; }
  bool operator!=(const Checked &o) const { return p != o.p; }
};

long iterator_throws(const std::vector<long> &v) {
  std::atomic<long> sum{0};
  cilk_for (Checked it{v.data()}; it != Checked{v.data() + v.size()}; ++it)
    sum += *it;
  return sum;
}

template <typename F> void report(const char *what, F f) {
  try {
    f();
    std::printf("%s: no exception\n", what);
  } catch (Boom &e) {
    std::printf("%s: caught '%s'\n", what, e.what());
  }
  std::printf("%s: live objects %ld\n", what, live.load());
}

int main() {
  report("one thrower", [] { one_thrower(5000, 4321); });
  report("first iteration", [] { one_thrower(5000, 0); });
  report("last iteration", [] { one_thrower(5000, 4999); });
  report("many throwers", [] { many_throwers(3000); });
  report("spawned child", [] { spawned_child_throws(2000, 1234); });
  report("nested", [] { nested_throws(40); });
  report("caught inside", [] { std::printf("caught %ld\n", caught_inside(1000)); });
  std::vector<long> v(1000, 1);
  v[777] = -777;
  report("iterator", [&] { iterator_throws(v); });
  v[777] = 1;
  report("no throw", [&] { std::printf("sum %ld\n", iterator_throws(v)); });
  return 0;
}
