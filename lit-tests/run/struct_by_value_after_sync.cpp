// Verify that spawned results of struct type can be used as whole values
// after the sync: passed by value to a function (a copy of the variable),
// assigned to another struct, returned. The copy belongs after the sync,
// not in the spawn's window, and must see what the child wrote.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <cstdio>

struct Money { // returned in registers
  long cents;
  int moves;
};
struct Ledger { // returned through sret
  long entries[6];
};

static Money add(Money a, Money b) {
  return {a.cents + b.cents, a.moves + b.moves + 1};
}

Money reduce(long lo, long hi) {
  if (hi - lo == 1)
    return {lo, 0};
  long mid = lo + (hi - lo) / 2;
  Money left = cilk_spawn reduce(lo, mid);
  Money right = cilk_spawn reduce(mid, hi);
  cilk_sync;
  return add(left, right);
}

Ledger ledger(long n) {
  Ledger l;
  for (int i = 0; i < 6; ++i)
    l.entries[i] = n * 10 + i;
  if (n > 1) {
    Ledger sub = cilk_spawn ledger(n - 1);
    Ledger copy;
    copy = cilk_spawn ledger(n - 2);
    cilk_sync;
    Ledger both = sub; // copied after the sync
    for (int i = 0; i < 6; ++i)
      l.entries[i] += both.entries[i] + copy.entries[i] % 1000;
  }
  return l;
}

int main() {
  Money m = reduce(0, 1000);
  std::printf("%ld %d\n", m.cents, m.moves);
  Ledger l = ledger(18);
  for (long e : l.entries)
    std::printf("%ld ", e);
  std::printf("\n");
}
