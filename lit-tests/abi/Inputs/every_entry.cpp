// A program that makes the plugin emit a call to as many runtime entries as
// one C++ program can: spawns and syncs, exceptions through spawned
// children and landing pads that wait for them, alloca() and a VLA in a
// spawning function, a cilk_for whose iterations throw, a reducer variable
// and main. Compiled only (lit-tests/abi/program_references.test).
#include <cilk/cilk.h>

#include <alloca.h>
#include <cstring>
#include <stdexcept>

static void zero(void *v) { *static_cast<long *>(v) = 0; }
static void add(void *l, void *r) {
  *static_cast<long *>(l) += *static_cast<long *>(r);
}

struct Guard {
  ~Guard();
};
Guard::~Guard() {}

long leaf(long n) {
  if (n < 0)
    throw std::runtime_error("negative");
  return n;
}

long fib(long n) {
  if (n < 2)
    return leaf(n);
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

long with_cleanup(long n) {
  Guard g;
  long x = cilk_spawn leaf(n);
  long y = leaf(n - 1);
  cilk_sync;
  return x + y;
}

// Allocated after a spawn, so that a slow clone may run them (from the
// frame's arena).
long with_allocas(int n) {
  long first = cilk_spawn leaf(n);
  char *board = static_cast<char *>(alloca(n));
  std::memset(board, 0, n);
  long vla[n];
  for (int i = 0; i < n; ++i)
    vla[i] = cilk_spawn leaf(board[i] + i);
  cilk_sync;
  for (int i = 0; i < n; ++i)
    first += vla[i];
  return first;
}

long loop(long n) {
  long cilk_reducer(zero, add) sum = 0;
  cilk_for(long i = 0; i < n; ++i) sum += leaf(i - 1);
  return sum;
}

int main(int argc, char **argv) {
  try {
    return int(fib(argc) + with_cleanup(argc) + with_allocas(argc) +
               loop(argc));
  } catch (const std::exception &) {
    return 1;
  }
}
