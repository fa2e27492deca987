// A void spawn whose argument is a std::string temporary: the temporary is
// destroyed after the call in the parent's code, which after a steal is the
// continuation running on the thief, so the thief frees the string while the
// child is still reading it (heap-use-after-free). In the serial elision
// (and in Cilk) the temporary lives until the spawned call returns.
//   clang++-19 -I/work/main/include -O2 temporary_string_void_spawn.cpp && ./a.out -> 2512740
//   weft-clang++ -O2 ...; WEFT_NWORKERS=2 WEFT_STRESS=1 ./a.out                  -> wrong (1863201 here)
//   weft-clang++ -O1 -fsanitize=address ...; WEFT_NWORKERS=2 ./a.out             -> heap-use-after-free
// Correct at WEFT_NWORKERS=1.
#include <cilk/cilk.h>
#include <cstdio>
#include <string>
__attribute__((noinline)) static void consume(const std::string &s, long *out) {
  volatile long spin = 0;
  for (long k = 0; k < 20000; ++k)
    spin = spin + k;  // give a thief time
  long sum = 0;
  for (char c : s)
    sum += c;
  *out = sum;
}
long f(long n) {
  long a = 0, b = 0;
  cilk_spawn consume(std::string(40, 'a' + n % 26), &a);
  cilk_spawn consume("a string literal longer than the SSO buffer", &b);
  cilk_sync;
  return a + b;
}
int main() {
  long s = 0;
  for (long n = 0; n < 300; ++n)
    s += f(n);
  std::printf("%ld\n", s);
}
