// Verify that a spawned statement whose argument temporaries are destroyed
// by code spanning blocks is an error at the spawn, not a miscompile: the
// array behind a std::initializer_list of a class with a destructor
// (destroyed in a loop) and a class passed by value that a conditional
// expression builds (destroyed behind Clang's cleanup flags). The spawn's
// window stops at the first block boundary, so those destructors would run
// in the continuation, where a thief runs them while the child still reads
// the objects. The suggested fix, building the argument in a variable
// first, compiles; so does an initializer_list of a trivial type and a
// conditional over trivially copyable values.
// RUN: %clangxx -fplugin=%plugin -O0 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
#include <cilk/cilk.h>
#include <initializer_list>
#include <string>

struct T {
  explicit T(long x);
  ~T();
  long v;
};

void sum_list(long *out, std::initializer_list<T> l);
void sum_longs(long *out, std::initializer_list<long> l);
void size_of(long *out, std::string s);
void scaled(long *out, long v);
std::string make(long i);

void spawns(long *out, bool literal) {
  for (long i = 0; i < 8; ++i) {
    cilk_spawn sum_list(out + i, {T(i), T(i + 1)}); // expected-error {{this spawned statement destroys an argument's temporary in code the spawn cannot cover (the array of a std::initializer_list, or a class built by a conditional expression); build the argument in a variable before the spawn}}
    cilk_spawn size_of(out + i, literal ? std::string(50, 'a') : make(i)); // expected-error {{this spawned statement destroys an argument's temporary}}
  }
  cilk_sync;
}

void workarounds(long *out, bool literal) {
  for (long i = 0; i < 8; ++i) {
    std::string s = literal ? std::string(50, 'a') : make(i);
    cilk_spawn size_of(out + i, s);
    cilk_spawn sum_longs(out + i, {i, i + 1});
    cilk_spawn scaled(out + i, literal ? i : 2 * i);
  }
  cilk_sync;
}
