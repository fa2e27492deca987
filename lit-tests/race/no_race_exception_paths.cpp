// Verify that --weft-race reports nothing on the paths an exception takes
// while children are outstanding: a function that throws from its
// continuation with a child writing one of its locals, and a try block
// whose second child throws while the first, writing a local of the try
// block, is outstanding. The landing pad waits for the children before
// the locals' destructors and the ends of their lives; the detector was
// not told of that wait, and a local's life ended before it, so each
// write was reported as racing with the end of the local's scope. The
// program's output must equal its serial elision's.
// RUN: %clangxx -O1 %s -o %t.serial
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O1 -g %s -o %t1
// RUN: %expect-races 0 0 %t1 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t2
// RUN: %run-check %t2 %t.serial
// CHECK: races found: 0
#include <cilk/cilk.h>
#include <cstdio>
#include <string>
#include <vector>

struct Boom {
  long code;
};

__attribute__((noinline)) static long work(long n) {
  if (n == 7)
    throw Boom{-n};
  long s = 0;
  for (long i = 0; i < n * 100; ++i)
    s += i ^ n;
  return s;
}

// Throws from the continuation with a child outstanding.
static long continuation_throws(long n) {
  long v = n;
  std::vector<long> vec(3, n);
  std::string tag = std::to_string(n);
  if (n % 2 == 0)
    v = cilk_spawn work(n);
  if (n % 3 == 0)
    throw Boom{n};
  cilk_sync;
  return v + (long)tag.size() + vec[1];
}

// The second child throws while the first, writing x, is outstanding.
static long sibling_throws(long n) {
  long r = 0;
  try {
    long x = cilk_spawn work(n + 1);
    long y = cilk_spawn work(n % 4 == 3 ? 7 : n);
    cilk_sync;
    r = x + y;
  } catch (const Boom &b) {
    r = b.code;
  }
  return r;
}

int main() {
  long t = 0;
  for (long n = 0; n < 30; ++n) {
    try {
      t += continuation_throws(n);
    } catch (const Boom &b) {
      t += b.code;
    }
    t += sibling_throws(n);
  }
  std::printf("%ld\n", t);
}
