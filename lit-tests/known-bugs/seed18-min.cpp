// Weft bug (found by lit-tests/random/gen_forkjoin.py, seed 18): when the
// continuation throws while a child is outstanding, the unwinding runs the
// destructors of the function's locals before it waits for the children
// (the catch-all that waits comes after the cleanups). OpenCilk runs the
// implicit sync first ("destructors for block scope variables are run after
// the implicit sync"); the early-return path of Weft gets this right.
//  (1) th_string: the child is constructing the std::string result `s` while
//      the unwinding destroys it -> heap corruption;
//  (2) th_vector: the child reads the vector `v` through a const reference
//      while the unwinding frees it -> heap-use-after-free (silent at -O2,
//      reported by AddressSanitizer).
// The serial elision prints "112000 5015039420".
//
//   clang++-19 -I/work/main/include -O2 seed18-min.cpp -o ser && ./ser
//   /work/main/build/bin/weft-clang++ -O2 seed18-min.cpp -o weft
//   WEFT_NWORKERS=4 WEFT_STRESS=1 ./weft
//     -> free(): unaligned chunk detected in tcache 2 (abort) or SIGSEGV
//   /work/main/build/bin/weft-clang++ -O1 -fsanitize=address seed18-min.cpp -o weft-asan
//   WEFT_NWORKERS=2 WEFT_STRESS=1 ./weft-asan
//     -> AddressSanitizer: heap-use-after-free ... in vsum / mk
#include <cilk/cilk.h>
#include <cstdio>
#include <string>
#include <vector>
struct Boom { long code; };
std::string mk(long n) {
  std::string r;
  for (long i = 0; i < 200 + n % 50; ++i)
    r += (char)('a' + i % 26);
  return r;
}
static long vsum(const std::vector<long> &v) {
  long t = 0;
  for (long r = 0; r < 20; ++r)
    for (long e : v)
      t += e;
  return t;
}
long th_string(long n) {
  std::string s = cilk_spawn mk(n);
  if (n % 2 == 0)
    throw Boom{n}; // s is destroyed here while mk may still be constructing it
  cilk_sync;
  return (long)s.size();
}
long th_vector(long n) {
  std::vector<long> v(1000 + n % 7, n);
  long r = cilk_spawn vsum(v);
  if (n % 2 == 0)
    throw Boom{n}; // v is freed here while vsum may still be reading it
  cilk_sync;
  return r;
}
int main() {
  long t = 0, u = 0;
  for (long i = 0; i < 1000; ++i) {
    try { t += th_string(i); } catch (const Boom &) { t -= 1; }
    try { u += th_vector(i); } catch (const Boom &) { u -= 1; }
  }
  printf("%ld %ld\n", t, u);
}
