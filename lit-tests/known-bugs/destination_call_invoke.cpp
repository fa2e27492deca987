// The destination of a spawned call's result is computed by a call that may
// throw (here idx(k)) in a scope with a destructor, so Clang emits that call
// as an invoke between the spawned call and the store of its result. The
// pass then rejects the valid program:
//   /work/main/build/bin/weft-clang++ -O2 destination_call_invoke.cpp
//   destination_call_invoke.cpp:22:22: error: the result of a spawned call
//   must be stored directly into a variable or an lvalue
// Expected: compiles and prints what the serial elision prints (-4002646135772423096)
// (same at -O0 and -O1). Without the Guard local (no cleanup, so idx is a
// plain call) it compiles and runs correctly.
#include <cilk/cilk.h>
#include <cstdio>
struct Guard {
  ~Guard() {}
};
__attribute__((noinline)) static long slow(long v) { return v * 10 + 1; }
__attribute__((noinline)) static long idx(long k, long n) { return (k * 7 + n) % 64; }
long f(long n) {
  Guard g;
  long arr[64] = {};
  for (long k = 0; k < n && k < 64; ++k)
    arr[idx(k, n)] = cilk_spawn slow(k);
  cilk_sync;
  long h = 0;
  for (long k = 0; k < 64; ++k)
    h = h * 31 + arr[k];
  return h;
}
int main() { std::printf("%ld\n", f(40)); }
