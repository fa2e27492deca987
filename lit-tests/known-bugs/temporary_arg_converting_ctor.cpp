// A trivially destructible temporary materialised for a spawned call's
// const-reference argument (via a converting constructor) ends its lifetime
// before the spawned call: at -O2 the constructor's stores are deleted as
// dead, so the child reads garbage, with one worker and no steals.
// Serial elision prints 390; weft -O2 prints 0 (or garbage); weft -O1
// -fsanitize=address reports stack-use-after-scope at WEFT_NWORKERS=1.
#include <cilk/cilk.h>
#include <cstdio>
struct Meters {
  long v[4];
  Meters(long x) : v{x, x + 1, x + 2, x + 3} {}
};
__attribute__((noinline)) static long slow(const Meters &m) { return m.v[0] * 7 + m.v[3]; }
long f(long n) {
  long a = cilk_spawn slow(n);   // Meters(n) temporary bound to the parameter
  cilk_sync;
  return a;
}
int main() {
  long s = 0;
  for (long n = 0; n < 10; ++n)
    s += f(n);
  std::printf("%ld\n", s);
}
