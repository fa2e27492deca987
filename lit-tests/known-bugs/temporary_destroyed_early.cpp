// A temporary created for a spawned call's argument is destroyed by the
// continuation (on the thief) while the spawned child still uses it.
// Serial elision: the temporary lives until the end of the full-expression,
// i.e. until the call returns.
#include <cilk/cilk.h>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <cstdlib>
struct Name {
  char *p;
  Name(const char *s) : p(strdup(s)) {}
  ~Name() { std::memset(p, 'X', std::strlen(p)); std::free(p); p = nullptr; }
};
static long len(const Name &n) {
  volatile long spin = 0;
  for (long i = 0; i < 100000; ++i) spin = spin + i;   // give a thief time
  return n.p && n.p[0] == 'h' ? (long)std::strlen(n.p) : -1000;
}
long f() {
  long r = cilk_spawn len("hello");
  cilk_sync;
  return r;
}
int main() {
  long s = 0;
  for (int i = 0; i < 200; ++i) s += f();
  std::printf("%ld\n", s);  // expected 1000
}
