// Verify that an error only the IR pass can see, a spawned call whose
// result is not stored straight into a variable or an lvalue (here passed
// on to another call, or chosen by a conditional operator), points at the
// spawn without -g: the front end gives each spawn marker the spawn's
// source location, and the pass reports through Clang's diagnostics. Also
// inside a return statement, where only a spawn that is the whole operand
// is accepted (run/return_spawn.cpp). Direct calls, member calls (the
// object marker carries the location too) and function objects, in C++
// and C.
// RUN: %clangxx -fplugin=%plugin -O0 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -fplugin=%plugin -O2 -g -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clang -fplugin=%plugin -x c -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
#include <cilk/cilk.h>

long f(long);
long g(long);

long passed_on(long n) {
  // expected-error@+1 {{the result of a spawned call must be stored directly into a variable or an lvalue}}
  long x = g(cilk_spawn f(n));
  cilk_sync;
  return x;
}

long in_condition(long n) {
  long x = 0;
  // expected-error@+1 {{the result of a spawned call must be stored directly}}
  if (cilk_spawn f(n))
    x = 1;
  cilk_sync;
  return x;
}

long in_conditional(long n, int c) {
  // expected-error@+1 {{the result of a spawned call must be stored directly}}
  long x = c ? cilk_spawn f(n) : 0;
  cilk_sync;
  return x;
}

long returned_argument(long n) {
  // expected-error@+1 {{the result of a spawned call must be stored directly}}
  return g(cilk_spawn f(n));
}

long returned_conditional(long n, int c) {
  // expected-error@+1 {{the result of a spawned call must be stored directly}}
  return c ? cilk_spawn f(n) : 0;
}

#ifdef __cplusplus
struct S {
  long m(long);
  long operator()(long);
};

long member(S *s, long n) {
  // expected-error@+1 {{the result of a spawned call must be stored directly}}
  long x = g(cilk_spawn s->m(n));
  cilk_sync;
  return x;
}

long function_object(S &s, long n) {
  long y = cilk_spawn s(n); // a correct spawn in the same function
  // expected-error@+1 {{the result of a spawned call must be stored directly}}
  long x = g(cilk_spawn s(n + 1));
  cilk_sync;
  return x + y;
}
#endif
