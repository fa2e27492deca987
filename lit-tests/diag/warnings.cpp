// Verify the warnings for code that compiles but loses data: a sync in a
// function that never spawns, and a spawned result stored in a variable
// that goes out of scope before any sync. Correct code gets no warning: a
// result variable declared in a cilk_scope block dies after the block's
// sync, and a scope that spawns nothing is no mistake.
// RUN: %clangxx -fplugin=%plugin -fsyntax-only -Xclang -verify %s
#include <cilk/cilk.h>

long f(long);

long sync_without_spawn(long n) {
  long x = f(n);
  cilk_sync; // expected-warning {{a sync in a function that never spawns does nothing}}
  return x;
}

long result_dies_in_loop(long n) {
  long total = 0;
  for (long i = 0; i < n; ++i) {
    long x = cilk_spawn f(i); // expected-warning {{'x' goes out of scope before the next sync}}
    total += i;
  }
  cilk_sync;
  return total;
}

long assigned_result_dies(long n) {
  {
    long y;
    y = cilk_spawn f(n); // expected-warning {{'y' goes out of scope before the next sync}}
  }
  cilk_sync;
  return n;
}

// No warnings below.
long synced_in_scope(long n) {
  long total = 0;
  for (long i = 0; i < n; ++i) {
    long x = cilk_spawn f(i);
    long y = f(i + 1);
    cilk_sync;
    total += x + y;
  }
  return total;
}

long body_scope(long n) {
  long x = cilk_spawn f(n); // the implicit sync at the end covers it
  return 1;
}

long result_in_cilk_scope(long n) {
  long total = 0;
  for (long i = 0; i < n; ++i) cilk_scope {
    long x = cilk_spawn f(i);
    total += f(i + 1);
  }
  cilk_scope {
    total += f(n); // nothing spawned
  }
  return total;
}

long lambda_spawns(long n) {
  auto g = [](long m) {
    long r = cilk_spawn f(m);
    cilk_sync;
    return r;
  };
  return g(n);
}

template <typename T> T templated(T n) {
  T x = f(n);
  cilk_sync; // expected-warning {{a sync in a function that never spawns does nothing}}
  return x;
}
template long templated<long>(long);
template int templated<int>(int);
