// A spawned statement whose temporaries are destroyed by code that spans
// blocks: the array behind a std::initializer_list argument (destroyed in a
// loop), and a class passed by value that a conditional expression builds
// (destroyed behind Clang's cleanup flags). The spawn's window stops at the
// first block boundary (SpawnLowering::collectSpawnWindow), so those
// destructors land in the continuation, and a thief runs them while the
// child still reads the temporaries.
//   clang++-19 -I/work/main/include -O2 temporaries_destroyed_across_blocks.cpp -o s && ./s
//     -> 3200 61000
//   weft-clang++ -O2 temporaries_destroyed_across_blocks.cpp -o w
//   WEFT_NWORKERS=4 WEFT_STRESS=1 ./w
//     -> both numbers wrong (children read destroyed objects), or a crash;
//        with -O1 -fsanitize=address: heap-use-after-free in the children
// The statement's end marker follows those cleanups, so the window could
// extend over the blocks up to it (in a helper, as an invoke's window is).
#include <cilk/cilk.h>
#include <cstdio>
#include <initializer_list>
#include <string>

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 30000; ++i)
    s = s + i;
}

struct T {
  long state = 1;
  long *v;
  explicit T(long x) : v(new long(x)) {}
  T(const T &) = delete;
  ~T() {
    state = 0;
    delete v;
  }
};

__attribute__((noinline)) static void sum_list(long *out,
                                               std::initializer_list<T> l) {
  spin();
  long s = 0;
  for (const T &t : l)
    s += t.state == 1 ? *t.v : -1000;
  *out = s;
}

__attribute__((noinline)) static std::string make(long i) {
  return std::string(40 + i, 'm');
}

__attribute__((noinline)) static void size_of(long *out, std::string s) {
  spin();
  *out = static_cast<long>(s.size()) + s[0];
}

int main(int argc, char **) {
  long lists = 0, strings = 0;
  bool literal = argc > 5; // false: the conditional picks make(i)
  for (int r = 0; r < 50; ++r) {
    long out[8] = {};
    for (long i = 0; i < 8; ++i)
      cilk_spawn sum_list(out + i, {T(i), T(i + 1)});
    cilk_sync;
    for (long x : out)
      lists += x;
    long out2[8] = {};
    for (long i = 0; i < 8; ++i)
      cilk_spawn size_of(out2 + i, literal ? std::string(50, 'a') : make(i));
    cilk_sync;
    for (long x : out2)
      strings += x;
  }
  std::printf("%ld %ld\n", lists, strings);
}
