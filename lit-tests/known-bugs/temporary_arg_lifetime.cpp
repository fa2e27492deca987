// The temporary materialised for a spawned call's const-reference argument
// ends its lifetime (llvm.lifetime.end) before the spawned call. At -O2 the
// store of n + 1 into the temporary is deleted as dead and the child reads
// an uninitialised slot, with one worker and no steals.
//   clang++-19 -I/work/main/include -O2 temporary_arg_lifetime.cpp && ./a.out   -> 165
//   weft-clang++ -O2 ...; WEFT_NWORKERS=1 ./a.out                                -> 0
//   weft-clang++ -O1 -fsanitize=address ...; WEFT_NWORKERS=1 ./a.out             -> stack-use-after-scope
#include <cilk/cilk.h>
#include <cstdio>
__attribute__((noinline)) static long h(const long &x) { return x * 3; }
long f(long n) {
  long a = cilk_spawn h(n + 1);
  cilk_sync;
  return a;
}
int main() {
  long s = 0;
  for (long n = 0; n < 10; ++n)
    s += f(n);
  std::printf("%ld\n", s);
}
