// Verify spawned calls whose class result is assigned to an existing object
// (`lhs = cilk_spawn f(a)`, the class not trivially copyable) against the
// serial elision: the call and the assignment are the child, the same
// assignment operator runs once with the call's result and the temporary
// is destroyed after it (counted: a class with user-defined copy and move
// assignment, one with copy assignment only); std::pair of std::vector
// results; left sides that are array elements, members (`s.m`, `this->m`,
// an implicit `this`, `p->m`), dereferenced pointers and elements of a
// std::vector; the assignment in a loop, with many children outstanding;
// left sides whose evaluation has side effects (an index incremented, a
// call handing out slots), evaluated once, in the parent, after the
// arguments as in C++17; member calls, function objects and function
// pointers as the spawned call; `[[weft::spawn]] x[0] = f();`; an
// assignment operator that throws in the child, caught after the sync.
// Also under AddressSanitizer.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 40
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 40
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 40
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

static std::atomic<long> Constructed, Copied, Moved, CopyAssigned,
    MoveAssigned, Destroyed;

// Children that take a little while, so thieves get to run continuations.
__attribute__((noinline)) static long slow(long v) {
  volatile long spin = 0;
  for (long k = 0; k < 500; ++k)
    spin = spin + k;
  return v * 10 + 1;
}

/// Counts every special member call; its heap payload lets AddressSanitizer
/// see a use after destruction or a double free.
struct Tally {
  long *Value;
  explicit Tally(long v = -1) : Value(new long(v)) { ++Constructed; }
  Tally(const Tally &o) : Value(new long(*o.Value)) { ++Copied; }
  Tally(Tally &&o) : Value(o.Value) {
    o.Value = nullptr;
    ++Moved;
  }
  Tally &operator=(const Tally &o) {
    *Value = *o.Value;
    ++CopyAssigned;
    return *this;
  }
  Tally &operator=(Tally &&o) {
    if (*o.Value == -99)
      throw std::runtime_error("refused -99");
    std::swap(Value, o.Value);
    ++MoveAssigned;
    return *this;
  }
  ~Tally() {
    delete Value;
    ++Destroyed;
  }
  long get() const { return Value ? *Value : -1000; }
};

/// Copy assignment only: `x = f()` binds the result to `const CopyOnly &`.
struct CopyOnly {
  std::vector<long> Data;
  CopyOnly() = default;
  CopyOnly(const CopyOnly &) = default;
  CopyOnly &operator=(const CopyOnly &o) {
    Data = o.Data;
    ++CopyAssigned;
    return *this;
  }
};

using Halves = std::pair<std::vector<int>, std::vector<int>>;

__attribute__((noinline)) static Tally make(long n) { return Tally(slow(n)); }
__attribute__((noinline)) static Tally refused(long n) {
  slow(n);
  return Tally(-99);
}
__attribute__((noinline)) static CopyOnly make_copy_only(long n) {
  CopyOnly c;
  for (long k = 0; k < n % 7 + 1; ++k)
    c.Data.push_back(slow(n + k));
  return c;
}
__attribute__((noinline)) static Halves split(int n) {
  Halves h;
  for (int k = 0; k < n; ++k)
    (k % 2 ? h.second : h.first).push_back((int)slow(k));
  return h;
}

static unsigned long Hash = 1469598103934665603ul;
static void report(const char *what, long v) {
  Hash = (Hash ^ (unsigned long)v) * 1099511628211ul;
  std::printf("%-16s %ld\n", what, v);
}
static long sum(const std::vector<int> &v) {
  long s = 0;
  for (int x : v)
    s = s * 31 + x;
  return s;
}

struct Holder {
  Tally M;
  Halves H;
  Tally Other;
  void fill(long n) {
    this->M = cilk_spawn make(n);
    H = cilk_spawn split((int)n % 9 + 3); // an implicit this->
    Other = make(n + 1);
    cilk_sync;
  }
  Tally make_member(long n) const { return Tally(slow(n) + M.get()); }
};

struct Maker {
  long Bias;
  Tally operator()(long n) const { return Tally(slow(n) + Bias); }
};

static long SlotCalls = 0;
__attribute__((noinline)) static Tally *next_slot(Tally *base, long *cursor) {
  ++SlotCalls;
  return base + (*cursor)++;
}

static void array_elements(long n) {
  Halves X[2];
  X[0] = cilk_spawn split(10);
  X[1] = split(7);
  cilk_sync;
  report("pair[0].first", sum(X[0].first));
  report("pair[0].second", sum(X[0].second));
  report("pair[1].first", sum(X[1].first));

  Tally T[3];
  [[weft::spawn]] T[0] = make(n);
  T[1] = cilk_spawn make(n + 1);
  T[2] = make(n + 2);
  cilk_sync;
  report("tally[0..2]", T[0].get() * 1000000 + T[1].get() * 1000 + T[2].get());
}

static void members_and_pointers(long n) {
  Holder h;
  h.fill(n);
  report("this->m", h.M.get());
  report("implicit this", sum(h.H.first) + sum(h.H.second));

  Holder g, *p = &g;
  Tally t, *q = &t;
  g.M = cilk_spawn make(n + 3);   // s.m
  p->Other = cilk_spawn make(n + 4); // p->m
  *q = cilk_spawn make(n + 5);    // *p
  p->H = cilk_spawn split(5);
  cilk_sync;
  report("s.m", g.M.get());
  report("p->m", g.Other.get());
  report("*p", t.get());
  report("p->h", sum(g.H.first));

  std::vector<Tally> v(4);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = cilk_spawn make(n + (long)i); // vector::operator[] as the left side
  cilk_sync;
  for (const Tally &e : v)
    report("vector elem", e.get());
}

// Many children outstanding at once, each assigning its own element.
static void in_a_loop(long n) {
  std::vector<Tally> out(n);
  Tally *raw = out.data();
  for (long i = 0; i < n; ++i)
    raw[i] = cilk_spawn make(i);
  std::vector<Halves> pairs(n / 4 + 1);
  for (size_t i = 0; i < pairs.size(); ++i)
    pairs[i] = cilk_spawn split((int)i + 1);
  cilk_sync;
  long h = 0;
  for (const Tally &e : out)
    h = h * 31 + e.get();
  report("loop tallies", h);
  long hp = 0;
  for (const Halves &e : pairs)
    hp = hp * 37 + sum(e.first) - sum(e.second);
  report("loop pairs", hp);
}

// The left side is evaluated once, in the parent, after the arguments:
// the child sees k's old value, the continuation the new one at once.
static void side_effects(long n) {
  std::vector<Tally> out(n + 1);
  long k = 0, seen = 0;
  for (long i = 0; i < n; ++i) {
    out[k++] = cilk_spawn make(k);
    seen += k;
  }
  long cursor = 0;
  Tally slots[8];
  for (long i = 0; i < 8; ++i)
    *next_slot(slots, &cursor) = cilk_spawn make(100 + i);
  cilk_sync;
  long h = 0;
  for (long i = 0; i < n; ++i)
    h = h * 31 + out[i].get();
  report("k++ elements", h);
  report("k after", k * 1000 + seen);
  long hs = 0;
  for (const Tally &s : slots)
    hs = hs * 31 + s.get();
  report("slots", hs);
  report("slot calls", SlotCalls * 100 + cursor);
}

static void callables(long n) {
  Holder h;
  h.M = Tally(7);
  Maker maker{1000};
  Tally (*fp)(long) = make;
  auto lambda = [n](long m) { return Tally(slow(m) - n); };
  Tally a, b, c, d;
  a = cilk_spawn h.make_member(n);
  b = cilk_spawn maker(n);
  c = cilk_spawn fp(n + 1);
  d = cilk_spawn lambda(n + 2);
  CopyOnly e;
  e = cilk_spawn make_copy_only(n);
  cilk_sync;
  report("member call", a.get());
  report("function object", b.get());
  report("function pointer", c.get());
  report("lambda", d.get());
  report("copy only", (long)e.Data.size() * 1000 + e.Data.back());
}

// The child's operator= throws: the exception surfaces at the sync.
static void throwing_assignment(long n) {
  Tally a, b;
  try {
    a = cilk_spawn make(n);
    b = cilk_spawn refused(n);
    cilk_sync;
    report("no exception", 0);
  } catch (const std::runtime_error &e) {
    std::printf("caught: %s\n", e.what());
  }
  report("after throw", a.get());
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 40;
  array_elements(n);
  members_and_pointers(n);
  in_a_loop(n);
  side_effects(n);
  callables(n);
  throwing_assignment(n);
  std::printf("constructed %ld copied %ld moved %ld\n", Constructed.load(),
              Copied.load(), Moved.load());
  std::printf("copy-assigned %ld move-assigned %ld destroyed %ld\n",
              CopyAssigned.load(), MoveAssigned.load(), Destroyed.load());
  std::printf("hash %lx\n", Hash);
  return 0;
}
