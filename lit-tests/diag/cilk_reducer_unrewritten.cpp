// Verify that a use of a cilk_reducer that the rewrite cannot make the
// calling strand's view is an error at that use, never the variable itself
// (the leftmost view, from any strand): a default member initialiser, the
// initialiser of a thread_local or a function-local static, a default
// argument that Clang copies into each call (it holds
// std::source_location::current() or a consteval call), and a reference
// that Sema folded to a static reducer used in a lambda that does not
// capture it. The forms the rewrite supports around them get no
// diagnostic: the reducer passed on as a reducer pointer (&x) in each of
// those places, a namespace-scope initialiser (before main), a lambda
// capturing a local reducer by reference, unevaluated operands, an
// ordinary default argument, and a template's instantiations.
// RUN: %weftcxx -std=c++20 -fsyntax-only -Xclang -verify -ferror-limit=0 %s
#include <cilk/cilk.h>
#include <source_location>

static void zero(void *v) { *(long *)v = 0; }
static void plus(void *l, void *r) { *(long *)l += *(long *)r; }
using sum_t = long cilk_reducer(zero, plus);

sum_t total;
long *before_main = &total;
long copied_before_main = total;
sum_t *key_before_main = &total;

// (a) default member initialisers
struct member_inits {
  long *p = &total; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a default member initialiser is not rewritten}}
  long v = total + 1; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a default member initialiser is not rewritten}}
  sum_t *key = &total;
  unsigned long size = sizeof(total);
};

template <class T> struct member_template {
  T *p = &total; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a default member initialiser}}
};

// (b) thread_local at namespace scope
thread_local long tls_copy = total; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a static or thread_local variable's initialiser runs once}}
thread_local sum_t *tls_key = &total;

// (c) default arguments Sema copies into each call
consteval int one() { return 1; }
static long *copied(long *v = ((void)one(), &total)) { return v; } // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because Clang copies a default argument}}
static long *located(long *v = ((void)std::source_location::current(), &total)) { return v; } // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because Clang copies a default argument}}
static long *plain_default(long *v = &total) { return v; }
static long *key_default(sum_t *p = &total) { return &*p; }

static void calls() {
  *copied() += 1;
  *located() += 1;
  *plain_default() += 1;
  *key_default() += 1;
}

// (d) a folded reference in a lambda that does not capture it
static void folded() {
  long &r = total;
  r += 1;
  [] { r += 1; }(); // expected-error {{'r' is bound to a reducer, and this lambda does not capture it, so this use cannot get the strand's view}}
  [&] { total += 1; }();
}

// (e) function-local statics
static void statics() {
  static long &r = total; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a static or thread_local variable's initialiser runs once}}
  static long copy = total; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a static or thread_local variable's initialiser runs once}}
  thread_local long *p = &total; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a static or thread_local variable's initialiser runs once}}
  static sum_t *key = &total;
  static auto later = [] { return total; };
  r += copy + *p + *key + later();
}

// Supported forms stay quiet.
static void locals(long n) {
  sum_t sum = 0;
  sum_t *p = &sum;
  cilk_for (long i = 0; i < n; ++i) {
    *p += i;
    [&] { sum += i; }();
  }
  total += sum + sizeof(sum) + alignof(decltype(sum));
}

template <class T> static void in_template(T n) {
  static T *p = &total; // expected-error {{this use of reducer 'total' cannot get the calling strand's view, because a static or thread_local variable's initialiser runs once}}
  total += n + *p;
}

void use() {
  member_inits m;
  member_template<long> t;
  (void)m;
  (void)t;
  tls_copy += *tls_key;
  calls();
  folded();
  statics();
  locals(10);
  in_template(1L);
}
