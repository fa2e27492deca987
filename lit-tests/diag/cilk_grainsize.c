// Verify where a grainsize pragma may stand, in C and C++: right before a
// cilk_for inside a function body, also right after a closing brace there
// and written in GCC Cilk Plus's `#pragma cilk_grainsize = N`; right after
// a function's closing brace it is outside any function, and says so (not
// a parse error of the tokens it would have become).
// RUN: %clang -std=c11 -fplugin=%plugin -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -x c++ -fplugin=%plugin -fsyntax-only -Xclang -verify %s
#include <cilk/cilk.h>

long f(long);

void before(int n) {
  cilk_for (int i = 0; i < n; ++i) f(i);
}
#pragma cilk grainsize 4 // expected-error {{'#pragma cilk grainsize' must come right before a cilk_for loop inside a function body}}

void inside(int n) {
  if (n) {
    f(n);
  }
#pragma cilk grainsize 4
  cilk_for (int i = 0; i < n; ++i) f(i);
  {
    f(n);
  }
#pragma cilk_grainsize = 2
  cilk_for (int i = 0; i < n; ++i) f(i);
  _Pragma("cilk_grainsize = 2") cilk_for (int i = 0; i < n; ++i) f(i);
#pragma cilk_grainsize // expected-error {{expected a grain size after '#pragma cilk grainsize'}}
  cilk_for (int i = 0; i < n; ++i) f(i);
#pragma cilk_grainsize = 8
  for (int i = 0; i < n; ++i) f(i); // expected-error@-1 {{'#pragma cilk grainsize' must be followed by a cilk_for loop}}
}
#pragma cilk_grainsize = 4 // expected-error {{'#pragma cilk grainsize' must come right before a cilk_for loop inside a function body}}

void after(void) {}
