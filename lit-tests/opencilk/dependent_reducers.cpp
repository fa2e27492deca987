// Verify reducers declared through an alias template whose identity and
// reduce depend on its parameters, as OpenCilk's headers declare them
// (`template <class T> using sum_of = T cilk_reducer(zero<T>, plus<T>)`):
// each specialization is a reducer with that specialization's functions,
// used from main and from a function template's instantiations, of two
// types at once; a declaration and a pointer parameter in a function
// template whose own identity and reduce depend on its parameter
// (`T cilk_reducer(zero<T>, plus<T>) t`), per instantiation; and
// <cilk/holder.h>, OpenCilk's per-strand scratch space,
// whose every strand writes its own view without a race. Against the
// serial elision at 1, 2 and 4 workers, with and without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %t | FileCheck %s
// CHECK: 499999500000 500000.0 4999950000 499500 499500
// CHECK-NEXT: 4999950000 4950 5000
#include <cilk/cilk.h>
#include <cilk/holder.h>
#include <cstdio>
#include <new>
#include <vector>

template <class T> void zero(void *view) { new (view) T(); }
template <class T> void plus(void *left, void *right) {
  *static_cast<T *>(left) += *static_cast<T *>(right);
}
template <class T> using sum_of = T cilk_reducer(zero<T>, plus<T>);

template <class T> T total(long n) {
  sum_of<T> sum = 0;
  cilk_for (long i = 0; i < n; ++i)
    sum += static_cast<T>(i);
  return sum;
}

template <class T> T ownTotal(long n) {
  T cilk_reducer(zero<T>, plus<T>) sum = 0;
  cilk_for (long i = 0; i < n; ++i)
    sum += static_cast<T>(i);
  return sum;
}

template <class T> void countInto(T cilk_reducer(zero<T>, plus<T>) *p, long n) {
  cilk_for (long i = 0; i < n; ++i)
    *p += static_cast<T>(1);
}

int main() {
  sum_of<long> count = 0;
  sum_of<double> halves = 0;
  cilk_for (long i = 0; i < 1000000; ++i) {
    count += i;
    halves += 0.5;
  }
  // Each strand fills its own scratch vector; the sums go to a reducer.
  cilk::holder<std::vector<int>> scratch;
  sum_of<long> via_scratch = 0;
  cilk_for (int i = 0; i < 1000; ++i) {
    std::vector<int> &mine = scratch;
    mine.assign(3, i);
    via_scratch += mine[0] + mine[1] + mine[2] - 2 * i;
  }
  long cilk_reducer(zero<long>, plus<long>) counted = 0;
  countInto<long>(&counted, 5000);
  std::printf("%ld %.1f %ld %d %ld\n", static_cast<long>(count),
              static_cast<double>(halves), total<long>(100000), total<int>(1000),
              static_cast<long>(via_scratch));
  std::printf("%ld %d %ld\n", ownTotal<long>(100000), ownTotal<short>(100),
              static_cast<long>(counted));
  return 0;
}
