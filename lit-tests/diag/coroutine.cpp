// Verify that a C++20 coroutine that spawns gets an error, not a crash in
// the backend: its own coroutine lowering and Weft's cannot share a function.
// RUN: %clangxx -std=c++20 -fplugin=%plugin -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -std=c++20 -fplugin=%plugin -O0 -S -emit-llvm -o /dev/null -Xclang -verify %s
#include <cilk/cilk.h>
#include <coroutine>

struct Task {
  struct promise_type {
    long v = 0;
    Task get_return_object() { return {}; }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_value(long x) { v = x; }
    void unhandled_exception() {}
  };
};

static long f(long n) { return n + 1; }

// expected-error@+1 {{weft: a C++ coroutine (co_await, co_yield, co_return) cannot spawn: spawn from a function it calls}}
Task spawning_coroutine(long n) {
  long x = cilk_spawn f(n);
  cilk_sync;
  co_return x;
}

// A coroutine that calls a spawning function is fine.
long spawning(long n) {
  long x = cilk_spawn f(n);
  cilk_sync;
  return x;
}
Task calling_coroutine(long n) { co_return spawning(n); }
