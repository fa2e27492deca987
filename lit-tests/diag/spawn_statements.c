// Verify that a spawned statement that cannot run as a function of its own
// is an error at the spawn, saying what is in the way, in C and C++: a
// return, a goto or a label, a break or continue that leaves it, a static
// variable declared in it, and a variably modified variable it names other
// than an array whose first dimension alone is variable (a pointer to one,
// an array with a variable inner dimension). A break inside a loop of its
// own is fine, and so is an array of variable length
// (run/spawned_statement_vlas.c).
// RUN: %weftcc -fsyntax-only -Xclang -verify %s
// RUN: %weftcxx -x c++ -fsyntax-only -Xclang -verify %s
#include <cilk/cilk.h>

long f(long);

long statements(long n, int m) {
  long x = 0;
  int vla[m];
  int matrix[m][m];
  int (*rows)[m] = 0;
  for (int i = 0; i < 4; ++i) {
    cilk_spawn { if (n) return 1; } // expected-error {{a spawned statement cannot contain a return: it runs as a function of its own; spawn a call, or move that out of the statement}}
    cilk_spawn { if (n) break; } // expected-error {{a spawned statement cannot contain a break or continue that leaves it}}
    cilk_spawn { if (n) goto out; } // expected-error {{a spawned statement cannot contain a goto or label}}
    cilk_spawn { static int calls; ++calls; } // expected-error {{a spawned statement cannot contain a static or thread_local variable}}
    cilk_spawn vla[0] = 1;
    cilk_spawn matrix[0][0] = 1; // expected-error {{a spawned statement cannot contain a variably modified type other than an array whose first dimension alone is variable}}
    cilk_spawn rows[0][1] = 1; // expected-error {{a spawned statement cannot contain a variably modified type other than an array whose first dimension alone is variable}}
    cilk_spawn { for (int j = 0; j < 3; ++j) { if (j == n) break; x += f(j); } }
  }
  cilk_sync;
out:
  return x;
}
