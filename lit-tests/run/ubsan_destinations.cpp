// Verify that spawns compile and run under UndefinedBehaviorSanitizer, whose
// checks put control flow between a spawned call and the store of its result
// (bounds and overflow checks on `out[i]`, the function type check on a call
// through a pointer). The destination is still evaluated before the spawn:
// the spawned call moves down to its store.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O0 -fsanitize=undefined -fno-sanitize-recover=all %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O2 -fsanitize=undefined -fno-sanitize-recover=all %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <string>

typedef long (*Fn)(long);
static long leaf(long n) { return n % 1000 + 1; }
static Fn pick(long) { return leaf; }
static std::string name(long n) { return std::to_string(n) + " is a long enough name"; }

long in_loop(long n) {
  long out[8];
  for (int i = 0; i < 8; ++i)
    out[i] = cilk_spawn leaf(n + i);
  cilk_sync;
  long s = 0;
  for (long v : out)
    s += v;
  return s;
}

long through_pointers(long n) {
  long out[8];
  out[n % 8] = cilk_spawn pick(n)(n % 20);
  Fn fp = &leaf;
  out[(n + 1) % 8] = cilk_spawn (*fp)(n);
  cilk_sync;
  return out[n % 8] + out[(n + 1) % 8];
}

long strings(long n) {
  std::string a = cilk_spawn name(n);
  std::string b = cilk_spawn name(n + 3);
  cilk_sync;
  return (long)(a.size() + b.size());
}

int main() {
  long t = 0;
  for (long n = 0; n < 100; ++n)
    t += in_loop(n) + through_pointers(n) + strings(n);
  std::printf("%ld\n", t);
}
