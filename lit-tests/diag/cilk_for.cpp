// Verify that every cilk_for the lowering cannot run in parallel gets a
// clear error at the offending part of the loop, never a crash: a header
// of another shape (the loop variable not declared in it, several
// variables, no initialiser, a condition or a step of another form, also an
// assignment other than `i = i + s`, `i = s + i` or `i = i - s`, a step
// that never reaches the limit), a loop variable of another type, a body
// that leaves the loop or changes the loop variable, a header that spawns,
// a goto or a case label into the body, misplaced or malformed grainsize
// pragmas and attributes, and an iterator that is not random-access, and
// (C++20) a body that suspends a coroutine (loops over a range:
// cilk_for_range.cpp). Correct
// loops (continue, break inside inner loops and switches, spawns synced in
// the body) get no diagnostic; a loop in a constexpr function gets a
// warning that it runs serially.
// RUN: %clangxx -fplugin=%plugin -fsyntax-only -Xclang -verify -ferror-limit=0 %s
// RUN: %clangxx -std=c++20 -fplugin=%plugin -fsyntax-only -Xclang -verify -ferror-limit=0 %s
#include <cilk/cilk.h>
#include <vector>

long f(long);

#pragma cilk grainsize 4 // expected-error {{'#pragma cilk grainsize' must come right before a cilk_for loop inside a function body}}

void header(int n) {
  int j = 0;
  cilk_for (j = 0; j < n; ++j) f(j); // expected-error {{the loop variable of a cilk_for must be declared in its initialisation}}
  cilk_for (int i = 0, k = 0; i < n; ++i) f(i + k); // expected-error {{a cilk_for must declare exactly one loop variable}}
  cilk_for (int i; i < n; ++i) f(i); // expected-error {{the loop variable of a cilk_for must be initialised}}
  cilk_for (static int i = 0; i < n; ++i) f(i); // expected-error {{the loop variable of a cilk_for must be a local variable}}
  cilk_for (int i = 0; i * 2 < n; ++i) f(i); // expected-error {{the condition of a cilk_for must compare the loop variable with a limit}}
  cilk_for (int i = 0; i == n; ++i) f(i); // expected-error {{the condition of a cilk_for must compare}}
  cilk_for (int i = 0; i < i + n; ++i) f(i); // expected-error {{the condition of a cilk_for must compare}}
  cilk_for (int i = 0; i < n && i < 5; ++i) f(i); // expected-error {{the condition of a cilk_for must compare}}
  cilk_for (int i = 0; ; ++i) f(i); // expected-error {{the condition of a cilk_for must compare}}
  cilk_for (int i = 0; i < n; i *= 2) f(i); // expected-error {{the step of a cilk_for must be '++i', 'i++', '--i', 'i--', 'i += s', 'i -= s', 'i = i + s', 'i = s + i' or 'i = i - s', with s independent of the loop variable}}
  cilk_for (int i = 0; i < n; i += i) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 0; i < n; ) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 0; i < n; --i) f(i); // expected-error {{the step of this cilk_for moves the loop variable away from its limit}}
  cilk_for (int i = n; i > 0; i += 2) f(i); // expected-error {{moves the loop variable away from its limit}}
  cilk_for (int i = 0; i < n; i -= 1) f(i); // expected-error {{moves the loop variable away from its limit}}
  cilk_for (int i = 0; i < n; i += 0) f(i); // expected-error {{the step of a cilk_for cannot be zero}}
  cilk_for (int i = 0; i < n; i += 1.5) f(i); // expected-error {{the stride of a cilk_for must be an integer}}
  cilk_for (const int i = 0; i < n; ++i) f(i); // expected-error {{cannot assign to variable 'i' with const-qualified type}} expected-note {{declared const here}}
  cilk_for (int i = cilk_spawn f(n); i < n; ++i) f(i); // expected-error {{the header of a cilk_for cannot spawn}}
}

// `i = i + s`, `i = s + i` and `i = i - s` are `i += s` and `i -= s`, with
// their rules; other assignments are not steps.
void assignment_steps(int n, std::vector<int> &v) {
  int j = 0, s = 2;
  cilk_for (int i = 0; i < n; i = i * 2) f(i); // expected-error {{the step of a cilk_for must be '++i', 'i++', '--i', 'i--', 'i += s', 'i -= s', 'i = i + s', 'i = s + i' or 'i = i - s'}}
  cilk_for (int i = 0; i < n; i = j + s) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = n; i > 0; i = s - i) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 0; i < n; i = i + i) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 1; i < n; i = n / i) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 0; i < n; i = (short)(i + 1)) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 0; i < n; i = i + 0) f(i); // expected-error {{the step of a cilk_for cannot be zero}}
  cilk_for (int i = 0; i < n; i = i - 1) f(i); // expected-error {{moves the loop variable away from its limit}}
  cilk_for (int i = n; i > 0; i = 2 + i) f(i); // expected-error {{moves the loop variable away from its limit}}
  cilk_for (int i = 0; i < n; i = i + 1.5) f(i); // expected-error {{the stride of a cilk_for must be an integer}}
  cilk_for (auto it = v.begin(); it != v.end(); it = v.begin() + s) f(*it); // expected-error {{the step of a cilk_for must be}}
  cilk_for (auto it = v.begin(); it < v.end(); it = it - 1) f(*it); // expected-error {{moves the loop variable away from its limit}}
  cilk_for (auto it = v.begin(); it < v.end(); it = it - (-s)) f(*it); // fine
  cilk_for (int *p = &j; p < &j + 1; p = p + v.size()) f(*p); // fine
  cilk_for (int i = 0; i < n; i = i + 1) { i = i + 1; } // expected-error {{the loop variable 'i' of a cilk_for cannot be modified in its body}}
}

enum Color { Red, Green, Blue };

void types(int n) {
  cilk_for (double d = 0; d < n; d += 1) f(long(d)); // expected-error {{the loop variable of a cilk_for must have integer, pointer or random-access iterator type}}
  cilk_for (bool b = false; b != true; b = true) f(b); // expected-error {{must have integer, pointer or random-access iterator type}}
  cilk_for (Color c = Red; c < Blue; c = Color(c + 1)) f(c); // expected-error {{must have integer, pointer or random-access iterator type}}
  int &r = n;
  cilk_for (int &i = r; i < 10; ++i) f(i); // expected-error {{the loop variable of a cilk_for must be a local variable, not static or a reference}}
}

void body(int n) {
  cilk_for (int i = 0; i < n; ++i) { if (f(i)) break; } // expected-error {{'break' cannot leave the body of a cilk_for}}
  cilk_for (int i = 0; i < n; ++i) { if (f(i)) return; } // expected-error {{'return' cannot leave the body of a cilk_for}}
  cilk_for (int i = 0; i < n; ++i) { i += 2; } // expected-error {{the loop variable 'i' of a cilk_for cannot be modified in its body}}
  cilk_for (int i = 0; i < n; ++i) { ++i; } // expected-error {{the loop variable 'i' of a cilk_for cannot be modified in its body}}
  cilk_for (int i = 0; i < n; ++i) { i = 0; } // expected-error {{cannot be modified in its body}}
  cilk_for (int i = 0; i < n; ++i) {
    for (;;)
      break;
    while (f(i)) {
      if (f(i))
        continue;
      break;
    }
    switch (i) {
    case 1:
      break;
    }
    if (f(i))
      continue;
    auto lambda = [i] { return i + 1; }; // a lambda's return is its own
    long x = cilk_spawn f(lambda());
    cilk_sync;
    (void)x;
  }
}

void body_goto(int n) {
  cilk_for (int i = 0; i < n; ++i) { if (f(i)) goto out; } // expected-error {{'goto' cannot leave the body of a cilk_for}}
out:;
}

struct Forward { // an iterator without '-' and '+'
  int x;
  bool operator!=(const Forward &o) const { return x != o.x; }
  Forward &operator++() { ++x; return *this; }
};

void not_random_access(Forward a, Forward b) {
  cilk_for (Forward it = a; it != b; ++it) f(it.x); // expected-error {{the loop variable of a cilk_for must be a random-access iterator}}
}

void marks(int n) {
  int k = 0;
  [[weft::parallel_for]] while (k < n) ++k; // expected-error {{'weft::parallel_for' applies to a for loop}}
#pragma cilk grainsize 8
  for (int i = 0; i < n; ++i) f(i); // expected-error@-1 {{'#pragma cilk grainsize' must be followed by a cilk_for loop}}
#pragma cilk grainsize // expected-error {{expected a grain size after '#pragma cilk grainsize'}}
  cilk_for (int i = 0; i < n; ++i) f(i);
#pragma cilk grainsize(4) // no error: any expression
  cilk_for (int i = 0; i < n; ++i) f(i);
#pragma cilk grain 4 // expected-error {{expected 'grainsize' after '#pragma cilk'}}
  cilk_for (int i = 0; i < n; ++i) f(i);
}

template <typename T> void in_template(T n) {
  cilk_for (T i = 0; i < n; ++i) { if (f(i)) return; } // expected-error {{'return' cannot leave the body of a cilk_for}}
  cilk_for (T i = 0; i < n; i *= 2) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (T i = 0; i < n; i = n - i) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (T i = n; i > 0; i = i + 1) f(i); // expected-error {{moves the loop variable away from its limit}}
}
template void in_template<int>(int);

constexpr int constant_sum(int n) {
  int s = 0;
  cilk_for (int i = 0; i < n; ++i) // expected-warning {{cilk_for in a constexpr function runs serially}}
    s += i;
  return s;
}
static_assert(constant_sum(4) == 6, "evaluated as written");

#if __cplusplus >= 202002L
#include <coroutine>
struct Task {
  struct promise_type {
    Task get_return_object() { return {}; }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
};
Task suspends(int n) {
  cilk_for (int i = 0; i < n; ++i) {
    co_await std::suspend_never{}; // expected-error {{the body of a cilk_for cannot suspend a coroutine}}
  }
}
#endif
