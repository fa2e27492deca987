// A spawned statement's temporary in a loop (a std::string bound to a const
// reference here; one passed by value behaves the same) when the spawned call
// throws while its frame is owned (the pop succeeds) and earlier children
// whose continuations were stolen are still running. The temporary is the
// statement's own, an alloca of the clone activation that runs the
// statement (plugin/DynamicAllocas.cpp), and the exception takes it to the
// landing pad that destroys it. In a slow clone that landing pad first waits
// for the outstanding children (plugin/SpawnExceptions.cpp, path 4): it
// suspends, the slow clone returns to its scheduler, and the scheduler's next
// work reuses the stack memory the temporary lived in. The last child to
// finish resumes the frame, and the landing pad destroys what is now some
// other frame's memory.
//   clang++-19 -I/work/main/include -O2 temporary_exception_in_loop.cpp -o s && ./s
//     -> 200
//   weft-clang++ -O2 temporary_exception_in_loop.cpp -o w
//   for i in $(seq 10); do WEFT_NWORKERS=4 WEFT_STRESS=1 ./w; done
//     -> most runs abort: "free(): double free detected in tcache 2",
//        "free(): unaligned chunk detected in tcache 2"
//   weft-clang++ -O1 -g -fsanitize=address ...; WEFT_NWORKERS=4 WEFT_STRESS=1 ./w
//     -> stack-use-after-return in ~basic_string, called from loop(long*)
//        (.resume), or heap-use-after-free in take()
// The statement's temporaries belong to the child, which is done when its
// exception reaches the landing pad: destroying them before the landing
// pad's sync, or letting the slow clone wait there without leaving its stack,
// would fix it.
#include <cilk/cilk.h>
#include <cstdio>
#include <string>

static void spin(long n) {
  volatile long s = 0;
  for (long i = 0; i < n; ++i)
    s = s + i;
}

struct Boom {};

__attribute__((noinline)) static void take(long *out, const std::string &s, long i) {
  if (i % 4 == 3)
    throw Boom();
  spin(200000);
  *out = static_cast<long>(s.size()) * 1000 + s[0];
}

static long loop(long *out) {
  try {
    for (long i = 0; i < 8; ++i)
      cilk_spawn take(out + i, std::string(40 + i, static_cast<char>('a' + i)), i);
    cilk_sync;
  } catch (Boom &) {
    return 1;
  }
  return 0;
}

int main() {
  long caught = 0;
  for (int r = 0; r < 200; ++r) {
    long out[8] = {};
    caught += loop(out);
  }
  std::printf("%ld\n", caught);
}
