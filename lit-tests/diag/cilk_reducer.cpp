// Verify OpenCilk 2's cilk_reducer qualifier with the plugin: the supported
// forms (a variable, local, static or global; a typedef; an alias template
// whose functions do not depend on its parameters; a function template's
// specialisation, `zero<long>`; `T cilk_reducer(I, R)
// *p` used as `*p` and `p->m`; &x passed to such a pointer) compile without
// a diagnostic, in C++ and in C, and every form the plugin cannot follow is
// an error where it is written. Without the plugin the qualifier vanishes,
// so the serial elision compiles and runs.
// RUN: %weftcxx -fsyntax-only -Xclang -verify %s
// RUN: %weftcc -x c -fsyntax-only -Xclang -verify=c %s
// RUN: %clangxx %s -o %t.serial && %t.serial | FileCheck %s
// CHECK: 45 3 4 6
#include <cilk/cilk.h>
#include <stdio.h>
#ifdef __cplusplus
#include <new>
#endif

static void zero(void *v) { *(long *)v = 0; }
static void plus(void *l, void *r) { *(long *)l += *(long *)r; }
static long not_a_callback(long x) { return x; }

struct point {
  long x, y;
};
static void point_zero(void *v) {
  ((struct point *)v)->x = 0;
  ((struct point *)v)->y = 0;
}
static void point_add(void *l, void *r) {
  ((struct point *)l)->x += ((struct point *)r)->x;
  ((struct point *)l)->y += ((struct point *)r)->y;
}

#ifdef __cplusplus
template <class T> using sum_of = T cilk_reducer(zero, plus);
#endif
typedef long cilk_reducer(zero, plus) sum_of_long;

long cilk_reducer(zero, plus) total;

static void add_to(long cilk_reducer(zero, plus) *p, long x) { *p += x; }
static void move(struct point cilk_reducer(point_zero, point_add) *p) {
  p->x += 1;
  (*p).y += 2;
}

struct holder {
  long cilk_reducer(zero, plus) field; // expected-error {{reducer member 'field' needs a destructor in 'holder' to be unregistered when an object dies}} c-error {{in C, a struct member cannot be a reducer (cilk_reducer): no constructor registers it}}
};

long cilk_reducer(zero, plus) sums[4]; // expected-error {{an array of reducers (cilk_reducer) is not supported}} c-error {{an array of reducers}}

static void by_value(long cilk_reducer(zero, plus) x) { // expected-error {{a parameter cannot be a reducer (cilk_reducer) by value: pass a pointer}} c-error {{a parameter cannot be a reducer}}
  (void)x;
}

static void indexed(long cilk_reducer(zero, plus) *p) {
  p[1] += 1; // expected-error {{a reducer pointer cannot be indexed}} c-error {{a reducer pointer cannot be indexed}}
  *(p + 1) += 1; // expected-error {{a reducer can be reached only through a variable or parameter declared 'T cilk_reducer(identity, reduce) *p'}} c-error {{a reducer can be reached only through}}
}

static void bad_callbacks(void) {
  long cilk_reducer(zero, not_a_callback) odd = 0; // expected-error {{static_cast from 'long (*)(long)' to 'void (*)(void *, void *)' is not allowed}} c-error {{a cilk_reducer's identity must be 'void identity(void *view)' and its reduce 'void reduce(void *left, void *right)'}}
  odd += 1;
}

#ifdef __cplusplus
static void references_and_captures() {
  long cilk_reducer(zero, plus) r = 0;
  long cilk_reducer(zero, plus) &ref = r; // the reducer itself, as OpenCilk binds it
  auto copy = [r] { (void)r; }; // expected-error {{a reducer cannot be captured by copy: capture it by reference}}
  auto by_ref = [&r] { r += 1; };
  by_ref();
  (void)ref;
  (void)copy;
}

template <class T> static void zero_t(void *v) { *(T *)v = 0; }
template <class T> static void plus_t(void *l, void *r) {
  *(T *)l += *(T *)r;
}
// An alias template whose functions depend on its parameters is a reducer
// of each specialization's, and a declaration in a function template of
// each instantiation's (opencilk/dependent_reducers.cpp).
template <class T> using dependent_sum = T cilk_reducer(zero_t<T>, plus_t<T>);
static void dependent() {
  dependent_sum<long> d = 0;
  d += 1;
}
template <class T> static T in_template() {
  T cilk_reducer(zero_t<T>, plus_t<T>) t = 0;
  t += 1;
  return t;
}
template long in_template<long>();
// A data member of a class template is a reducer in each instantiation,
// whether or not its type or its functions depend on a parameter
// (reducer_members.cpp has the rest); a reducer type given to a template
// as its argument is reported there: the template's uses would get no
// views.
template <class View> struct template_holder {
  static void identity(void *v) { new (v) View(); }
  static void reduce(void *l, void *r) { *(View *)l += *(View *)r; }
  template_holder() : leftmost(), plain() {}
  ~template_holder() {}
  View cilk_reducer(identity, reduce) leftmost;
  long cilk_reducer(zero, plus) plain;
  View &view() { return leftmost; }
};
template <class T> struct box {
  T value;
};
static long template_members() {
  template_holder<long> h;
  box<long cilk_reducer(zero, plus)> b; // expected-error {{a reducer type (cilk_reducer) cannot be a template argument}}
  box<sum_of_long> named; // expected-error {{a reducer type (cilk_reducer) cannot be a template argument}}
  box<sum_of<long> *> pointer; // no reducer: a pointer to one
  h.view() = 1;
  return h.view() + b.value + named.value + (pointer.value != 0);
}
static void specialization() {
  long cilk_reducer(zero_t<long>, plus_t<long>) s = 0;
  s += 1;
}
#endif

/* Another tool's clang::annotate_type is not a reducer: none of these is an
   error, although `int` annotated for it is the same type as a reducer of
   int in Clang 19. */
#define TAINT [[clang::annotate_type("taint")]]
struct tainted {
  int TAINT field;
};
int TAINT tainted_global;
int TAINT tainted_array[3];
static int TAINT tainted_return(void) { return 0; }
static void tainted_pointer(int TAINT *q) {
  *q += 1;
  q[0] += 1;
  *(q + 1) -= 1;
}
#ifdef __cplusplus
static void tainted_reference(int TAINT &q, int TAINT v) { q += v; }
static int tainted_capture(void) {
  int TAINT x = 1;
  auto f = [x] { return x; };
  return f();
}
#endif

int main(void) {
  long cilk_reducer(zero, plus) sum = 0;
  for (int i = 0; i < 10; ++i)
    sum += i;
#ifdef __cplusplus
  sum_of<long> other = 1;
#else
  sum_of_long other = 1;
#endif
  other += 2;
  sum_of_long named = 0;
  add_to(&named, 4);
  struct point cilk_reducer(point_zero, point_add) pt;
  point_zero(&pt);
  move(&pt);
  move(&pt);
  total = 0;
  printf("%ld %ld %ld %ld\n", sum, (long)other, named, pt.x + pt.y);
  return 0;
}
