// Verify cilk_for over a range: every random-access container (std::vector,
// std::array, a C array, std::deque, std::string, std::span, a view, a user
// range with random-access iterators, a range whose end is a sentinel of
// another type), every way to bind the element (auto, auto &, const auto &,
// auto &&, an explicit type converted from the element, a structured
// binding), a range that is a temporary (it lives until the loop ends), the
// range, begin() and end() evaluated once each and in C++'s order, C++20
// init-statements, `#pragma cilk grainsize`, the attribute spelling, a
// function template and a generic lambda, bodies that spawn (their
// children finish before the element variable and the body's locals are
// destroyed, with or without a sync), and exceptions from a body, a child
// of one and an iterator's operator (they leave the loop, every object
// destroyed once).
// RUN: %clangxx -std=c++20 -O2 %s -o %t.serial
// RUN: %weftcxx -std=c++20 -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -std=c++20 -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -std=c++20 -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
// RUN: %weftcxx -std=c++20 -O1 -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
// LOWERED: call void @__weft_parallel_for(
#include <cilk/cilk.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <deque>
#include <numeric>
#include <ranges>
#include <span>
#include <string>
#include <utility>
#include <vector>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

template <class Range> long sum(const Range &r) {
  long s = 0;
  for (const auto &x : r)
    s += long(x);
  return s;
}

long containers() {
  std::vector<long> v(5000);
  std::iota(v.begin(), v.end(), 1);
  cilk_for (auto &x : v) x = 3 * x + 1;

  std::array<int, 257> a{};
  cilk_for (int &x : a) x = int(&x - a.data()) % 11;

  long c[300];
  cilk_for (long &x : c) x = (&x - c) * 2;

  std::deque<long> d(1000, 4);
  cilk_for (auto &x : d) x += 1;

  std::string s(777, 'a');
  cilk_for (char &ch : s) ch = char('a' + (&ch - s.data()) % 26);

  std::vector<int> backing(600, 1);
  std::span<int> sp(backing.data() + 100, 400);
  cilk_for (int &x : sp) x = 7;

  std::vector<long> out(64);
  cilk_for (long i : std::views::iota(0, 64)) out[i] = fib(i % 16);

  long chars = 0;
  for (char ch : s)
    chars += ch;
  return sum(v) + sum(a) + sum(c) + sum(d) + chars + sum(backing) + sum(out);
}

// A user range: random-access iterators of its own, and an end that is a
// sentinel of another type.
struct Counter {
  long at;
  long operator*() const { return at * at; }
  Counter &operator++() { ++at; return *this; }
  Counter operator+(long n) const { return {at + n}; }
  long operator-(const Counter &o) const { return at - o.at; }
  bool operator!=(const Counter &o) const { return at != o.at; }
};
struct Stop {
  long at;
};
long operator-(const Stop &s, const Counter &c) { return s.at - c.at; }
bool operator!=(const Counter &c, const Stop &s) { return c.at != s.at; }

struct Squares {
  long n;
  Counter begin() const { return {0}; }
  Counter end() const { return {n}; }
};
struct SquaresToSentinel {
  long n;
  Counter begin() const { return {0}; }
  Stop end() const { return {n}; }
};

long user_ranges() {
  std::vector<long> r(500), t(300);
  long *rp = r.data(), *tp = t.data();
  cilk_for (long sq : Squares{500}) rp[long(__builtin_sqrt(double(sq)) + 0.5)] = sq;
  cilk_for (long sq : SquaresToSentinel{300}) tp[long(__builtin_sqrt(double(sq)) + 0.5)] = sq + 1;
  return sum(r) + sum(t);
}

long bindings() {
  std::vector<std::pair<int, long>> ps(400);
  for (int i = 0; i < 400; ++i)
    ps[i] = {i, 10L * i};
  std::vector<long> out(400);
  cilk_for (auto p : ps) out[p.first] = p.second + 1;          // a copy
  cilk_for (const auto &p : ps) out[p.first] += p.second;      // const ref
  cilk_for (auto &&p : ps) p.second += 1;                       // forwarding
  cilk_for (auto [k, v] : ps) out[k] += v;                      // binding
  cilk_for (auto &[k, v] : ps) v *= 2;                          // by reference
  cilk_for (const auto &[k, v] : ps) out[k] += v;
  std::vector<int> ints(300);
  std::iota(ints.begin(), ints.end(), 0);
  std::vector<double> halves(300);
  cilk_for (double d : ints) halves[int(d)] = d / 2;            // converted
  cilk_for (long x : ints) out[x] += x;
  std::vector<bool> bits(100, true);
  std::atomic<long> set{0};
  cilk_for (bool b : bits) set += b;                            // proxy
  return sum(out) + long(sum(halves)) + set;
}

static int calls;
std::vector<long> make(int n) {
  ++calls;
  return std::vector<long>(n, n);
}

struct Logged {
  std::vector<long> v;
  std::string *log;
  long *begin() { *log += "b"; return v.data(); }
  long *end() { *log += "e"; return v.data() + v.size(); }
};

long evaluation() {
  std::atomic<long> s{0};
  cilk_for (long x : make(300)) s += x;                 // a temporary range
  std::string log;
  Logged l{std::vector<long>(50, 2), &log};
  cilk_for (long &x : (log += "r", l)) x += 1;          // r, b, e, once each
  cilk_for (auto v = make(40); long &x : v) x += 2;     // init-statement
  cilk_for (std::vector<long> v(30, 1); long x : v) s += x;
  std::printf("log=%s calls=%d\n", log.c_str(), calls);
  return s + sum(l.v);
}

long spellings() {
  std::vector<long> v(3000, 1);
#pragma cilk grainsize 7
  cilk_for (auto &x : v) x += 1;
  [[weft::parallel_for]] for (auto &x : v) x *= 3;
#pragma cilk grainsize = 100
  [[weft::parallel_for]] for (auto &x : v) x += 1;
  long s = 0;
  weft_for (long x : v) { (void)x; }
  for (long x : v)
    s += x;
  return s;
}

template <class T> T scaled_sum(std::vector<T> v, T k) {
  cilk_for (T &x : v) x *= k;
  return sum(v);
}

long spawning_bodies() {
  std::vector<long> v(200);
  std::iota(v.begin(), v.end(), 0);
  std::vector<long> out(200);
  long *op = out.data();
  cilk_for (const long &i : v) {
    long a = cilk_spawn fib(i % 17);
    if (i % 5 == 0)
      continue; // the child is still synced before the iteration ends
    long b = fib(i % 13);
    cilk_sync;
    op[i] = a + b;
  }
  // No explicit sync: the children finish before the body's locals and
  // the element variable are gone.
  std::vector<std::string> names(64, "name");
  std::atomic<long> lengths{0};
  cilk_for (std::string s : names) {
    std::string mine = s + "-x";
    cilk_spawn [&] { lengths += long(s.size() + mine.size()); }();
  }
  auto nested = [](auto &rows) {
    cilk_for (auto &row : rows) cilk_for (auto &x : row) x = fib(x % 12);
  };
  std::vector<std::vector<long>> m(20, std::vector<long>(20, 11));
  nested(m);
  long ms = 0;
  for (auto &row : m)
    ms += sum(row);
  return sum(out) + lengths + ms;
}

struct Boom {
  long at;
};

static std::atomic<long> live{0};
struct Tracked {
  long v;
  Tracked(long v) : v(v) { ++live; }
  Tracked(const Tracked &o) : v(o.v) { ++live; }
  ~Tracked() { --live; }
};

// A range whose element access throws at one position.
struct Fragile {
  long at, bad;
  long operator*() const {
    if (at == bad)
      throw Boom{at};
    return at;
  }
  Fragile &operator++() { ++at; return *this; }
  Fragile operator+(long n) const { return {at + n, bad}; }
  long operator-(const Fragile &o) const { return at - o.at; }
  bool operator!=(const Fragile &o) const { return at != o.at; }
};
struct FragileRange {
  long n, bad;
  Fragile begin() const { return {0, bad}; }
  Fragile end() const { return {n, bad}; }
};

long exceptions() {
  std::vector<Tracked> v;
  for (long i = 0; i < 500; ++i)
    v.emplace_back(i);
  long caught = 0;
  try {
    cilk_for (Tracked t : v) { // a copy per iteration, destroyed on the throw
      if (t.v == 321)
        throw Boom{t.v};
    }
  } catch (Boom &b) {
    caught += b.at;
  }
  try {
    cilk_for (const Tracked &t : v) {
      long x = cilk_spawn fib(t.v % 10);
      if (t.v == 77) {
        cilk_sync; // x is the child's until then
        throw Boom{x};
      }
    }
  } catch (Boom &b) {
    caught += 1000 * b.at;
  }
  try {
    std::atomic<long> s{0};
    cilk_for (long x : FragileRange{400, 123}) s += x;
  } catch (Boom &b) {
    caught += 1000000 * b.at;
  }
  v.clear();
  std::printf("live after the loops: %ld\n", live.load());
  return caught;
}

int main() {
  std::printf("exceptions: %ld\n", exceptions());
  std::printf("containers: %ld\n", containers());
  std::printf("user ranges: %ld\n", user_ranges());
  std::printf("bindings: %ld\n", bindings());
  std::printf("evaluation: %ld\n", evaluation());
  std::printf("spellings: %ld\n", spellings());
  std::printf("templates: %ld %.1f\n", scaled_sum<long>({1, 2, 3}, 4),
              scaled_sum<double>(std::vector<double>(100, 0.5), 3.0));
  std::printf("spawning bodies: %ld\n", spawning_bodies());
  long a = cilk_spawn containers();
  long b = spawning_bodies();
  cilk_sync;
  std::printf("in spawned children: %ld %ld\n", a, b);
  return 0;
}
