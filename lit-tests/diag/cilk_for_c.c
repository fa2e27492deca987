// Verify the cilk_for errors that only C can reach (a goto or a case label
// of an enclosing switch into the body, which C++ already rejects as
// jumping over the loop variable's initialisation), and that C gets the
// same errors as C++ for a header of another shape, steps written as
// assignments included.
// RUN: %clang -std=c11 -fplugin=%plugin -fsyntax-only -Xclang -verify %s
#include <cilk/cilk.h>

long f(long);

void jump_in(int n) {
  goto inside; // expected-error {{a 'goto' cannot jump into the body of a cilk_for}}
  cilk_for (int i = 0; i < n; ++i) {
  inside:
    f(i);
  }
}

void case_in(int n) {
  switch (n) {
  case 0:
    cilk_for (int i = 0; i < n; ++i) {
    case 1: // expected-error {{a case label of a switch outside a cilk_for cannot be inside its body}}
      f(i);
    }
  }
}

void labels_inside(int n) {
  cilk_for (int i = 0; i < n; ++i) {
    if (f(i))
      goto skip; // a label inside the body: fine
    f(i + 1);
  skip:;
  }
}

void header(int n) {
  int j;
  cilk_for (j = 0; j < n; ++j) f(j); // expected-error {{the loop variable of a cilk_for must be declared in its initialisation}}
  cilk_for (float x = 0; x < n; x += 1) f((long)x); // expected-error {{must have integer, pointer or random-access iterator type}}
  cilk_for (int i = 0; i < n; ++i) { if (f(i)) break; } // expected-error {{'break' cannot leave the body of a cilk_for}}
}

void assignment_steps(int n, long *a) {
  int k = 1;
  cilk_for (int i = 0; i < n; i = i * 2) f(i); // expected-error {{the step of a cilk_for must be '++i', 'i++', '--i', 'i--', 'i += s', 'i -= s', 'i = i + s', 'i = s + i' or 'i = i - s', with s independent of the loop variable}}
  cilk_for (int i = 0; i < n; i = k + 2) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = n; i > 0; i = 1 - i) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 0; i < n; i = i + i) f(i); // expected-error {{the step of a cilk_for must be}}
  cilk_for (int i = 0; i < n; i = i - k) f(i); // fine: k may be negative
  cilk_for (int i = 0; i < n; i = i - 2) f(i); // expected-error {{moves the loop variable away from its limit}}
  cilk_for (int i = 0; i < n; i = 0 + i) f(i); // expected-error {{the step of a cilk_for cannot be zero}}
  cilk_for (long *p = a + n; p > a; p = 1 + p) f(*p); // expected-error {{moves the loop variable away from its limit}}
  cilk_for (long *p = a + n; p > a; p = a - 1) f(*p); // expected-error {{the step of a cilk_for must be}}
}
