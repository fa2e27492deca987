// Verify cilk_for wherever a loop can be written: function templates (over
// integer and iterator types, several instantiations), member functions
// defined in their class (`#pragma cilk grainsize` inside them too), lambdas
// and generic lambdas, a user macro that expands to a cilk_for, the
// weft_for keyword and the [[weft::parallel_for]] attribute, an unbraced
// loop under an `if` with an `else` after a grainsize pragma, and a loop in
// a constructor, inside and around cilk_scope blocks (a continue leaving a
// scope in the body), and (C++20) a coroutine. Each loop's result is
// compared with the serial elision.
// RUN: %clangxx -O2 -Wno-unknown-pragmas -Wno-unknown-attributes %s -o %t.serial
// RUN: %weftcxx -O2 -Wall -Wextra -Werror %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %clangxx -std=c++20 -O2 -Wno-unknown-pragmas -Wno-unknown-attributes %s -o %t.20.serial
// RUN: %weftcxx -std=c++20 -O1 %s -o %t.20
// RUN: %run-check %t.20 %t.20.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -S -emit-llvm %s -o - | FileCheck --check-prefix=LOWERED %s
// LOWERED: call void @__weft_parallel_for(
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>
#include <list>
#include <vector>

template <typename T> T sum_to(T n) {
  std::atomic<long long> s{0};
  cilk_for (T i = 0; i < n; ++i)
    s += (long long)i;
  return T(s.load());
}

template <typename Container> long sum_all(const Container &c) {
  std::atomic<long> s{0};
#pragma cilk grainsize 7
  cilk_for (auto it = c.begin(); it != c.end(); ++it)
    s += long(*it);
  return s;
}

struct Grid {
  std::vector<long> cells;
  explicit Grid(int n) : cells(n) {
    cilk_for (int i = 0; i < n; ++i)
      cells[i] = i % 13;
  }
  void scale(long k) {
#pragma cilk grainsize cells.size() / 10 + 1
    cilk_for (std::size_t i = 0; i < cells.size(); ++i)
      cells[i] *= k;
  }
  long total() const {
    long t = 0;
    for (long c : cells)
      t += c;
    return t;
  }
};

#if __cplusplus >= 202002L
#include <coroutine>

// A coroutine with a cilk_for between its suspension points.
struct Task {
  struct promise_type {
    long value = 0;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) { value = v; }
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> handle;
  ~Task() { handle.destroy(); }
};

Task coroutine(int k) {
  long out[200] = {0};
  co_await std::suspend_never{};
  cilk_for (int i = 0; i < 200; ++i)
    out[i] = long(i) * k;
  long s = 0;
  for (long v : out)
    s += v;
  co_return s;
}
#endif

#define PARALLEL_FILL(arr, n, value)                                           \
  cilk_for (int fill_i = 0; fill_i < (n); ++fill_i) (arr)[fill_i] = (value)

static volatile int flag = 1;

static long twice(long v) { return 2 * v; }

int main() {
  std::printf("templates: %d %ld %llu\n", sum_to(1000), sum_to(100000L),
              sum_to(5000ull));
  std::vector<short> vs(1234, 3);
  std::printf("container templates: %ld %ld\n", sum_all(vs),
              sum_all(std::vector<double>(99, 1.5)));

  Grid g(5000);
  g.scale(3);
  std::printf("members: %ld\n", g.total());

  auto lambda = [&](int n) {
    std::atomic<long> s{0};
    cilk_for (int i = 0; i < n; ++i)
      s += i * 2;
    return s.load();
  };
  auto generic = [](auto lo, auto hi) {
    std::atomic<long> s{0};
    cilk_for (decltype(lo) i = hi; i > lo; --i)
      s += long(i);
    return s.load();
  };
  std::printf("lambdas: %ld %ld %ld\n", lambda(777), generic(0, 300),
              generic(-5L, 5000L));

  long arr[300];
  PARALLEL_FILL(arr, 300, 4);
  long s = 0;
  for (long v : arr)
    s += v;
  std::printf("macro: %ld\n", s);

  weft_for (int i = 0; i < 300; ++i) arr[i] = i;
  [[weft::parallel_for]] for (long *p = arr; p != arr + 300; p += 2) *p = 0;
  s = 0;
  for (long v : arr)
    s += v;
  std::printf("weft_for and attribute: %ld\n", s);

  if (flag)
#pragma cilk grainsize 2
    cilk_for (int i = 0; i < 300; ++i) arr[i] = 1;
  else
    arr[0] = 100;
  s = 0;
  for (long v : arr)
    s += v;
  std::printf("unbraced under if/else: %ld\n", s);
  long scoped[64] = {0};
  cilk_scope {
    cilk_for (int i = 0; i < 64; ++i) {
      cilk_scope {
        scoped[i] = cilk_spawn twice(i);
        if (i % 3 == 0)
          continue; // leaves the scope: its child is done first
      }
      scoped[i] += 1;
    }
  }
  s = 0;
  for (long v : scoped)
    s += v;
  std::printf("scopes: %ld\n", s);
#if __cplusplus >= 202002L
  Task t = coroutine(3);
  std::printf("coroutine: %ld\n", t.handle.promise().value);
#endif
  return 0;
}
