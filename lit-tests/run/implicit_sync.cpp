// Verify that the implicit sync at the end of a spawning function runs
// before its locals are destroyed: children still write into a local
// object's vector when the parent reaches a return or the end of its body
// without an explicit sync, and the destructor sums what they wrote. Also
// returns from inside a loop and from a lambda. Under stress the children
// are usually still running when the parent gets there.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <vector>

static long total;

static void fill(std::vector<long> *v, long k) {
  for (int round = 0; round < 50; round++)
    for (long &x : *v)
      x += k;
}

struct Summed {
  std::vector<long> v = std::vector<long>(500, 1);
  ~Summed() {
    long s = 0;
    for (long x : v)
      s += x;
    __atomic_fetch_add(&total, s, __ATOMIC_RELAXED);
  }
};

// Falls off the end of a void function.
void falls_off_end(long k) {
  Summed a;
  cilk_spawn fill(&a.v, k);
}

// Returns from the middle, and at the end.
long returns_early(long k) {
  Summed a, b;
  cilk_spawn fill(&a.v, k);
  if (k % 3 == 0)
    return k;
  cilk_spawn fill(&b.v, k + 1);
  return -k;
}

// Returns from inside the loop that spawns.
long returns_in_loop(long k) {
  Summed parts[4];
  for (long i = 0; i < 4; ++i) {
    if (i == k % 5)
      return i;
    cilk_spawn fill(&parts[i].v, k + i);
  }
  return 4;
}

int main() {
  long check = 0;
  for (long k = 0; k < 60; ++k) {
    cilk_spawn falls_off_end(k);
    check += returns_early(k) + returns_in_loop(k);
    auto lambda = [k] {
      Summed c;
      cilk_spawn fill(&c.v, 2 * k);
      return k;
    };
    check += lambda();
    cilk_sync;
  }
  std::printf("check %ld total %ld\n", check, total);
}
