// Verify that a spawned call passing a class that is not trivial for calls
// by value between two struct arguments is an error at the spawn: the front
// end cannot count the IR arguments a struct becomes, so the pass cannot
// find the class's temporary to give each activation its own, and it does
// not guess. The same class after or before all struct arguments, or by
// const reference, compiles.
// RUN: %clangxx -fplugin=%plugin -O0 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
#include <cilk/cilk.h>

struct Tagged {
  Tagged(long);
  Tagged(const Tagged &);
  long v[2];
};
struct Small {
  long a, b;
};

void between(Small a, Tagged t, Small b);
void after(Small a, long *p, Tagged t);
void before(Tagged t, long *p, Small b);
void by_reference(Small a, const Tagged &t, Small b);

void spawns(long *p) {
  for (long i = 0; i < 4; ++i) {
    cilk_spawn between(Small{i, i}, Tagged(i), Small{i, i}); // expected-error {{this spawned call passes a class by value between two arguments of struct type, and the class's temporary cannot be told apart; pass it by const reference or move it before the struct arguments}}
    cilk_spawn after(Small{i, i}, p, Tagged(i));
    cilk_spawn before(Tagged(i), p, Small{i, i});
    cilk_spawn by_reference(Small{i, i}, Tagged(i), Small{i, i});
  }
  cilk_sync;
}
