// A spawned call inside a loop whose argument is passed in memory: a struct
// too large for registers (passed byval), or a temporary such as a
// std::string (passed by address; the child destroys it). In the -O2 IR the
// argument's storage is a slot of the spawning function's coroutine frame,
// one slot for every iteration, and the child copies it (byval) or uses it
// (the temporary) after __weft_push has made the continuation stealable. A
// thief resuming the continuation runs the next iteration and overwrites or
// destroys the slot while the earlier child still needs it. Arguments passed
// in registers (a struct of two longs) are not affected, nor are spawns
// outside loops.
//   clang++-19 -I/work/main/include -O2 spawn_args_in_loop.cpp -o s && ./s
//     -> byval 0 111 222 333 / temporary 20097 21098 22099 23100
//   weft-clang++ -O2 spawn_args_in_loop.cpp -o w
//   for i in $(seq 20); do WEFT_NWORKERS=2 WEFT_STRESS=1 ./w; done | sort | uniq -c
//     -> several runs in 20 differ, e.g. "byval 333 111 222 333" (child 0 saw
//        iteration 3's struct) and "temporary 21098 23000 22099 23100"
//   weft-clang++ -O1 -fsanitize=address ...; WEFT_NWORKERS=2 WEFT_STRESS=1 ./w
//     -> heap-use-after-free in the std::string child
// Also at -O0, and in C with a loop-local struct variable passed by value.
// Found by a first version of lit-tests/cilk5/lu.cpp whose Schur update
// spawned schur(m, p, k, c.at(..), a.at(..), b.at(..)) in a loop over the
// quadrants: the last two Block arguments no longer fit in registers.
#include <cilk/cilk.h>
#include <cstdio>
#include <string>

struct Big {
  long a, b, c;
};

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 20000; ++i)
    s = s + i;
}

__attribute__((noinline)) static void take_big(long *out, Big v) {
  spin();
  *out = v.a + v.b + v.c;
}

__attribute__((noinline)) static void take_string(long *out, std::string s) {
  spin();
  *out = static_cast<long>(s.size()) * 1000 + s[0];
}

static void byval_loop(long *out) {
  for (long i = 0; i < 4; ++i)
    cilk_spawn take_big(out + i, Big{i, 10 * i, 100 * i});
  cilk_sync;
}

static void temporary_loop(long *out) {
  for (long i = 0; i < 4; ++i)
    cilk_spawn take_string(out + i, std::string(20 + i, static_cast<char>('a' + i)));
  cilk_sync;
}

int main() {
  long big[4] = {}, str[4] = {};
  byval_loop(big);
  temporary_loop(str);
  std::printf("byval %ld %ld %ld %ld\n", big[0], big[1], big[2], big[3]);
  std::printf("temporary %ld %ld %ld %ld\n", str[0], str[1], str[2], str[3]);
}
