// Verify that misuse of spawn and sync gets an error at the mark's location
// (at the macro's use for a keyword written in a macro), never a crash.
// RUN: %clangxx -fplugin=%plugin -fsyntax-only -Xclang -verify %s
#include <cilk/cilk.h>
#include <string>

long f(long);
struct S {
  long m(long);
};


std::string name(long);

// A returned spawn must be the whole operand (run/return_spawn.cpp).
long returned_sum(long n) {
  return cilk_spawn f(n) + 1; // expected-error {{a spawn must be followed by a function call}}
}

// A class result assigned by a statement of its own is the child's, with
// its assignment (run/assign_class_result.cpp). Inside a larger expression
// the assignment's value would be used before the child produced it; a
// call through a pointer to member function is not moved into the helper
// that assigns.
struct Named {
  std::string m(long);
};
long assigned_class(long n, Named &o, std::string (Named::*pm)(long)) {
  std::string s;
  [[weft::spawn]] s = name(n);
  s = cilk_spawn name(n);
  long k = (s = cilk_spawn name(n)).size(); // expected-error {{a spawned call returning a class that is not trivially copyable must initialise a new variable ('T x = cilk_spawn f();') or be assigned by a statement of its own}}
  s = cilk_spawn (o.*pm)(n); // expected-error {{this kind of call cannot be spawned into an assignment of a class}}
  cilk_sync;
  return (long)s.size() + k;
}

long spawn_into_reference(long n) {
  [[weft::spawn]] const long &r = f(n); // expected-error {{a spawned call cannot initialise a reference}}
  cilk_sync;
  return r;
}

void sync_with_operand(long n) {
  [[weft::sync]] f(n); // expected-error {{'weft::sync' applies to an empty statement}}
}

void scope_without_block(long n) {
  cilk_scope f(n); // expected-error {{a scope must be followed by a block ('cilk_scope { ... }')}}
}

void scope_attribute_on_statement(long n) {
  [[weft::scope]] f(n); // expected-error {{'weft::scope' applies to a block}}
  [[weft::scope]] long x = f(n); // expected-error {{'weft::scope' applies to a block}}
}

long global = cilk_spawn f(1); // expected-error {{a spawn must be followed by a function call inside a function body}}

// A template's misuse is reported once, however many instantiations; a
// generic lambda's too. (A value that is no call's is spawned if it is a
// scalar or a vector, opencilk/spawn_builtins.c; a class's is not.)
struct Box {
  long v;
};
template <typename T> Box in_template(T n) {
  Box x = cilk_spawn Box{(long)n}; // expected-error {{a spawn must be followed by a function call}}
  cilk_sync;
  return x;
}
long instantiate(long n) {
  auto generic = [](auto v) {
    Box x = cilk_spawn Box{(long)v}; // expected-error {{a spawn must be followed by a function call}}
    cilk_sync;
    return x.v;
  };
  return in_template(n).v + in_template((int)n).v + generic(n) + generic(1.5);
}

long directive_two_variables(long n) {
#pragma weft spawn // expected-error {{a spawned declaration must declare one variable}}
  long a = f(n), b = f(n + 1);
  cilk_sync;
  return a + b;
}

// A misused keyword inside a macro is reported at the macro's use.
#define SPAWN_BOX(n) cilk_spawn Box{n}
long in_macro(long n) {
  Box x = SPAWN_BOX(n); // expected-error {{a spawn must be followed by a function call, or be an assignment of a call}}
  cilk_sync;
  return x.v;
}

#pragma weft fork // expected-error {{expected 'spawn', 'sync', 'scope' or 'for' after '#pragma weft'}}

// expected-error@+1 {{spawn, sync or scope mark at end of file}}
#pragma weft spawn
