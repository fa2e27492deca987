/* Verify that OpenCilk's keywords need no header, as with OpenCilk's
 * compiler: _Cilk_spawn, _Cilk_sync, _Cilk_for, _Cilk_scope and
 * _Hyperobject(identity, reduce), in C and in C++, in a file that includes
 * no Cilk header, run in parallel (a reducer included) with the results
 * of the serial elision, which plain clang builds with the keywords
 * defined away. Including <cilk/cilk.h> after that (FULL) redefines
 * nothing: -Werror stays quiet.
 * RUN: %clang -O2 -D_Cilk_spawn= -D_Cilk_sync= -D_Cilk_for=for -D_Cilk_scope= '-D_Hyperobject(i,r)=' %s -o %t.serial
 * RUN: %weftcc -Wall -Werror -O2 %s -o %t
 * RUN: %run-check %t %t.serial
 * RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %until-stolen %t 2>&1 | FileCheck %s
 * CHECK: 4999950000 6765 10946
 * CHECK: weft-stats: workers=2 {{.*}}steals={{[1-9]}}
 * RUN: %weftcxx -x c++ -Wall -Werror -O2 %s -o %t.cxx
 * RUN: %run-check %t.cxx %t.serial
 * RUN: %weftcc -Wall -Werror -DFULL -O0 %s -o %t.full
 * RUN: %run-check %t.full %t.serial
 */
#ifdef FULL
#include <cilk/cilk.h>
#endif
#include <stdio.h>

static void zero(void *v) { *(long *)v = 0; }
static void plus(void *l, void *r) { *(long *)l += *(long *)r; }

static long fib(long n) {
  if (n < 2)
    return n;
  long x = _Cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  _Cilk_sync;
  return x + y;
}

int main(void) {
  long _Hyperobject(zero, plus) sum = 0;
  _Cilk_for (long i = 0; i < 100000; ++i)
    sum += i;
  long a, b;
  _Cilk_scope {
    a = _Cilk_spawn fib(20);
    b = fib(21);
  }
  printf("%ld %ld %ld\n", sum, a, b);
  return 0;
}
