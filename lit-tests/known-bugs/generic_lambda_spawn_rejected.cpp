// A spawn inside a generic lambda's body is rejected whenever the spawned
// call depends on an `auto` parameter, although the same body in a function
// template compiles and runs (app below). Expected: compiles, prints
// "5 21 25 16"; actual: three errors "only calls of functions, function
// pointers, member functions and function objects can be spawned" at the
// three generic lambdas.
//   /work/main/build/bin/weft-clang++ -O2 generic_lambda_spawn_rejected.cpp
#include <cilk/cilk.h>
#include <cstdio>
static long sq(long v) { return v * v; }
template <class F> long app(F f, long v) {  // accepted
  long x = cilk_spawn f(v);
  cilk_sync;
  return x;
}
int main() {
  auto g1 = [](auto v) { auto x = cilk_spawn sq(v); auto y = sq(v + 1); cilk_sync; return x + y; };
  auto g2 = [](auto f, long v) { long x = cilk_spawn f(v); cilk_sync; return x; };
  auto gfib = [](auto &self, long v) -> long {  // recursive generic lambda
    if (v < 2) return v;
    long x = cilk_spawn self(self, v - 1);
    long y = self(self, v - 2);
    cilk_sync;
    return x + y;
  };
  std::printf("%ld %ld %ld %ld\n", g1(1), gfib(gfib, 8), g2(sq, 5), app(sq, 4));
}
