// A std::string temporary built for the argument of a spawned call whose
// result is stored: the temporary's lifetime ends before the spawned call
// reads it, even with one worker and no steals.
//   clang++-19 -I/work/main/include -O2 temporary_string_arg.cpp && ./a.out   -> 801400
//   weft-clang++ -O2 ...; WEFT_NWORKERS=1 ./a.out        -> garbage (403400) or SIGSEGV
//   weft-clang++ -O1 -fsanitize=address ...; WEFT_NWORKERS=1 ./a.out              -> stack-use-after-scope
// (See temporary_string_void_spawn.cpp for a void spawn, where the
// destructor runs in the continuation instead.)
#include <cilk/cilk.h>
#include <cstdio>
#include <string>
static long slen(const std::string &s) {
  volatile long spin = 0;
  for (long i = 0; i < 100000; ++i) spin = spin + i;   // give a thief time
  long sum = 0;
  for (char c : s) sum += c;
  return sum;
}
long f() {
  long r = cilk_spawn slen("a string literal longer than the SSO buffer");
  cilk_sync;
  return r;
}
int main() {
  long s = 0;
  for (int i = 0; i < 200; ++i) s += f();
  std::printf("%ld\n", s);
}
