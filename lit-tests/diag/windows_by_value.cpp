// Verify that a spawned call taking a class by value in the 32-bit Windows
// C++ ABI is an error at the spawn, not a miscompile: the caller builds such
// an argument in its outgoing argument area (an inalloca argument, between
// a stack save and restore around the call), which the spawn cannot give
// the child. The same class by reference, and a trivially copyable struct
// by value, compile.
// RUN: %clangxx -fplugin=%plugin --target=i686-pc-windows-msvc -O0 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -fplugin=%plugin --target=i686-pc-windows-msvc -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
#include <cilk/cilk.h>

struct Name {
  Name(const Name &);
  ~Name();
  char *p;
};
struct Pair {
  long a, b, c;
};

void take(Name n);
void take_ref(const Name &n);
void take_pair(Pair p);

void by_value(Name &n) {
  cilk_spawn take(n); // expected-error {{a spawned call cannot take a class by value in the 32-bit Windows C++ ABI (the caller builds it in its outgoing argument area); pass it by reference}}
  cilk_sync;
}

void by_reference(Name &n, Pair p) {
  for (int i = 0; i < 4; ++i) {
    cilk_spawn take_ref(n);
    cilk_spawn take_pair(p);
  }
  cilk_sync;
}
