// Verify OpenCilk 2's reducer headers: cilk::opadd_reducer<T>, declared as
// OpenCilk declares it (an alias template of `T cilk_reducer(zero<T>,
// plus<T>)`, so the sum is a T to every use: printf's `...` takes it, and
// &sum is a T *), updated with +=, -=, ++ and --, and passed to a reducer
// pointer parameter; and cilk::ostream_reducer<char> (a class), whose
// output must come out in serial order. Compared with the serial elision
// at P=1,2,4 with and without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 4000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 4000
// CHECK: i=3990
// CHECK: sum=7998000 count=4000 down=-4000 half=2000.0
#include <cilk/cilk.h>
#include <cilk/opadd_reducer.h>
#include <cilk/ostream_reducer.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

static void addTwice(long cilk_reducer(cilk::zero<long>, cilk::plus<long>) *p,
                     long x) {
  *p += 2 * x;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000;
  cilk::opadd_reducer<long> sum = 0;
  cilk::opadd_reducer<long> count = 0;
  cilk::opadd_reducer<int> down = 0;
  cilk::opadd_reducer<double> half = 0;
  {
    cilk::ostream_reducer<char> out(std::cout);
    cilk_for (long i = 0; i < n; ++i) {
      addTwice(&sum, i);
      sum -= i;
      ++count;
      down--;
      half += 0.5;
      if (i % 10 == 0)
        out << "i=" << i << '\n';
    }
  }
  long *where = &sum; // a long *, as in OpenCilk
  std::printf("sum=%ld count=%ld down=%d half=%.1f\n", *where, count, down,
              half);
  return 0;
}
