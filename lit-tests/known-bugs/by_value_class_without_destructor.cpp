// A spawned call in a loop taking by value a class that is not trivial for
// calls (a user-written copy constructor) but has a trivial destructor. The
// caller builds the argument in a temporary and passes its address; Clang 19
// gives that temporary no lifetime markers, and since nothing destroys it
// after the call, the lowering cannot tell it from a named variable
// (plugin/SpawnArguments.cpp), so it stays one slot of the coroutine frame for
// every iteration: a thief's next iteration constructs its argument there
// while the earlier child still reads its own. With a destructor (or a
// std::string member) the temporary is recognized and the program is right
// (run/spawn_args_in_loop.cpp); so it is when passed by const reference.
//   clang++-19 -I/work/main/include -O2 by_value_class_without_destructor.cpp -o s && ./s
//     -> 0 51 104 159 216 275 336 399
//   weft-clang++ -O2 by_value_class_without_destructor.cpp -o w
//   for i in $(seq 10); do WEFT_NWORKERS=2 WEFT_STRESS=1 ./w; done | sort | uniq -c
//     -> most runs differ, children seeing a later iteration's value
// Also at -O0.
#include <cilk/cilk.h>
#include <cstdio>

struct Tagged {
  long v[2];
  explicit Tagged(long x) : v{x, x * x} {}
  Tagged(const Tagged &o) : v{o.v[0], o.v[1]} {}
};

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 20000; ++i)
    s = s + i;
}

__attribute__((noinline)) static void take(long *out, Tagged t) {
  spin();
  *out = t.v[0] * 50 + t.v[1];
}

int main() {
  long r[8];
  for (long i = 0; i < 8; ++i)
    cilk_spawn take(r + i, Tagged(i));
  cilk_sync;
  for (long i = 0; i < 8; ++i)
    std::printf(i ? " %ld" : "%ld", r[i]);
  std::printf("\n");
}
