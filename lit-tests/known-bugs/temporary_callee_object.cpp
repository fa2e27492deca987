// A spawned call on a temporary callee object (a function object built in
// the spawn statement, or an immediately invoked lambda): the temporary's
// lifetime ends before the spawned call, so at -O2 its initialisation is
// deleted and operator() reads garbage, with one worker and no steals.
//   clang++-19 -I/work/main/include -O2 temporary_callee_object.cpp && ./a.out -> 235135
//   weft-clang++ -O2 ...; WEFT_NWORKERS=1 ./a.out                              -> wrong (10045 here)
//   weft-clang++ -O1 -fsanitize=address ...; WEFT_NWORKERS=1 ./a.out           -> stack-use-after-scope
#include <cilk/cilk.h>
#include <cstdio>
struct Adder {
  long base;
  long pad[3];
  __attribute__((noinline)) long operator()(long v) const { return base + v; }
};
long f(long n) {
  long a = cilk_spawn Adder{n * 2, {}}(n);
  long b = cilk_spawn [n](long m) __attribute__((noinline)) { return n * m + 1; }(5);
  cilk_sync;
  return a + b * 1000;
}
int main() {
  long s = 0;
  for (long n = 0; n < 10; ++n)
    s += f(n);
  std::printf("%ld\n", s);
}
