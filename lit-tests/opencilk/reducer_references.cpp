// Verify reducer references, as OpenCilk binds them: a parameter or a
// variable declared `T cilk_reducer(I, R) &r` (directly, or through an
// alias template such as OpenCilk's opadd_reducer) is bound to the reducer
// itself, not to a view, and each use of r is the calling strand's view of
// that reducer. Bound to a reducer variable, to another reference, to `*p`
// for a reducer pointer p, and to a reducer data member; in a recursion
// that spawns (OpenCilk's fib sample passes its sum this way) and in a
// function template. Against the serial elision at 1, 2 and 4 workers,
// with and without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %t | FileCheck %s
// CHECK: 75025
// CHECK-NEXT: 3000
// CHECK-NEXT: 300 77
#include <cilk/cilk.h>
#include <cstdio>
template <typename T> void zero_of(void *v) { *static_cast<T *>(v) = T(0); }
template <typename T> void plus_of(void *l, void *r) { *static_cast<T *>(l) += *static_cast<T *>(r); }
template <typename T> using sum_reducer = T cilk_reducer(zero_of<T>, plus_of<T>);

void fib(int n, sum_reducer<int> &total) {
  if (n < 2) { total += n; return; }
  cilk_spawn fib(n - 1, total);
  fib(n - 2, total);
  cilk_sync;
}
void zero(void *v) { *static_cast<long *>(v) = 0; }
void plus(void *l, void *r) { *static_cast<long *>(l) += *static_cast<long *>(r); }
void count(long cilk_reducer(zero, plus) &c, long n) {
  cilk_for (long i = 0; i < n; ++i) c++;
}
void via_pointer(long cilk_reducer(zero, plus) *p, long n) { count(*p, n); }
template <class T> void tcount(sum_reducer<T> &c, long n) {
  cilk_for (long i = 0; i < n; ++i) c += 1;
}
struct S { S() : m(0) {} ~S() {} long cilk_reducer(zero, plus) m; };
int main() {
  sum_reducer<int> total = 0;
  fib(25, total);
  printf("%d\n", total);
  long cilk_reducer(zero, plus) c = 0;
  count(c, 1000);
  via_pointer(&c, 1000);
  long cilk_reducer(zero, plus) &alias = c;
  cilk_for (int i = 0; i < 500; ++i) alias += 2;
  printf("%ld\n", c);
  sum_reducer<double> d = 0;
  tcount(d, 300);
  S s;
  count(s.m, 77);
  printf("%g %ld\n", d, s.m);
  return 0;
}
