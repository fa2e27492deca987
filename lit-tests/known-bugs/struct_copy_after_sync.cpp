// Two spawned calls returning a struct; after the sync both results are
// copied (memcpy: passed by value to a function). weft-lower-spawns moves the
// sync and the copy of the first result above the second spawn and pulls the
// copy of the second result into that spawn's window, leaving no sync between
// the second spawn and the use of its result: once the continuation is
// stolen it reads the copy before the child has finished.
//   clang++-19 -I/work/main/include -O2 struct_copy_after_sync.cpp && ./a.out -> 499500 999
//   weft-clang++ -O2 (or -O0) ...; WEFT_NWORKERS=2 WEFT_STRESS=1 ./a.out      -> 374750 500
//   (correct at WEFT_NWORKERS=1, and at 2 without stress when few steals happen)
// Writing `left.cents + right.cents` field by field instead of passing the
// structs by value gives the right answer.
#include <cilk/cilk.h>
#include <cstdio>
struct Money {
  long cents;
  int moves;
};
static Money add(Money a, Money b) { return {a.cents + b.cents, a.moves + b.moves + 1}; }
Money reduce(long lo, long hi) {
  if (hi - lo == 1)
    return {lo, 0};
  long mid = lo + (hi - lo) / 2;
  Money left = cilk_spawn reduce(lo, mid);
  Money right = cilk_spawn reduce(mid, hi);
  cilk_sync;
  return add(left, right);
}
int main() {
  Money d = reduce(0, 1000);
  std::printf("%ld %d\n", d.cents, d.moves);
}
