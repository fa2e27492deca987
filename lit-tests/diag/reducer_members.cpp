// Verify that a reducer data member that no code of its class would
// register or unregister is an error where it is written, with what to
// declare: a class whose destructor is trivial, a union member, making an
// object by a trivial default or copy constructor (also as a member of
// another class) or by aggregate initialisation, and assigning one by a
// trivial assignment operator, and a pointer to a reducer member (through
// which an access would be the member itself). In C, where nothing
// registers a member, any reducer member is an error. The valid forms
// compile without a word.
// RUN: %weftcxx -fsyntax-only -Xclang -verify %s
// RUN: %weftcc -x c -fsyntax-only -Xclang -verify=c %s
#include <cilk/cilk.h>

#ifdef __cplusplus
static void zero(void *v) { *static_cast<long *>(v) = 0; }
static void plus(void *l, void *r) { *static_cast<long *>(l) += *static_cast<long *>(r); }

struct trivial_dtor {
  trivial_dtor() : sum(0) {}
  long cilk_reducer(zero, plus) sum; // expected-error {{reducer member 'sum' needs a destructor in 'trivial_dtor' to be unregistered when an object dies, and 'trivial_dtor' has a trivial one: declare it ('~trivial_dtor() {}')}}
};
union either {
  long cilk_reducer(zero, plus) sum; // expected-error {{a union member cannot be a reducer (cilk_reducer)}}
  double d;
};
struct no_ctor {
  ~no_ctor() {}
  long cilk_reducer(zero, plus) sum;
};
struct holder { // expected-error {{making a 'no_ctor' here runs no constructor of its class}}
  no_ctor inner;
  ~holder() {}
};
struct aggregate {
  ~aggregate() {}
  long cilk_reducer(zero, plus) sum;
  int x;
};
// Valid: every way of making and assigning one is the class's own code.
struct complete {
  complete() : sum(0) {}
  complete(const complete &other) : sum(other.sum) {}
  complete &operator=(const complete &other) {
    sum = other.sum;
    return *this;
  }
  ~complete() {}
  long cilk_reducer(zero, plus) sum;
};

void uses() {
  trivial_dtor a;
  no_ctor b; // expected-error {{making a 'no_ctor' here runs no constructor of its class, so its reducer members (cilk_reducer) would not be registered: give 'no_ctor' a default constructor ('no_ctor() {}')}}
  no_ctor c = b; // expected-error {{making a 'no_ctor' here runs no constructor of its class, so its reducer members (cilk_reducer) would not be registered: give 'no_ctor' a copy constructor that initialises its members, or delete it ('no_ctor(const no_ctor &) = delete;')}}
  b = c; // expected-error {{assigning a 'no_ctor' here copies its reducer members (cilk_reducer) as bytes, not the strand's views: give 'no_ctor' an assignment operator, or delete it}}
  holder h; // expected-error {{making a 'holder' here runs no constructor of its class}}
  aggregate g{1, 2}; // expected-error {{'aggregate' has reducer members (cilk_reducer), which aggregate initialisation would not register: give 'aggregate' a constructor}}
  complete x, y = x;
  x = y;
  long complete::*pointer = &complete::sum; // expected-error {{a pointer to reducer member 'sum' cannot be taken: an access through it would not get the calling strand's view}}
  x.*pointer += 1;
  cilk_for (int i = 0; i < 10; ++i) {
    a.sum += i;
    x.sum += i;
  }
}
#else
void zero(void *v);
void plus(void *l, void *r);
struct member {
  long cilk_reducer(zero, plus) sum; // c-error {{in C, a struct member cannot be a reducer (cilk_reducer): no constructor registers it}}
};
#endif
