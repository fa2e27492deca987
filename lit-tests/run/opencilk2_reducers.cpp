// Verify OpenCilk 2's reducer headers, declared as OpenCilk declares them
// (alias templates of a cilk_reducer type): cilk::opadd_reducer<T> updated
// with +=, -=, ++ and --, read as a plain T (printf's `...` included) and
// passed by reference to a recursive function, as OpenCilk's fib sample
// does; and cilk::ostream_reducer<char>, a std::ostream to every use
// (passed to a function taking one), whose output must come out in serial
// order. Compared with the serial elision at P=1,2,4 with and without
// forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 4000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 4000
// CHECK: i=3990
// CHECK: sum=7998000 count=4000 down=-4000 fib=6765
#include <cilk/cilk.h>
#include <cilk/opadd_reducer.h>
#include <cilk/ostream_reducer.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

static void fib(int n, cilk::opadd_reducer<int> &total) {
  if (n < 2) {
    total += n;
    return;
  }
  cilk_spawn fib(n - 1, total);
  fib(n - 2, total);
}

static void line(std::ostream &os, long i) { os << "i=" << i << '\n'; }

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000;
  cilk::opadd_reducer<long> sum = 0;
  cilk::opadd_reducer<long> count = 0;
  cilk::opadd_reducer<int> down = 0;
  {
    cilk::ostream_reducer<char> out(std::cout);
    cilk_for (long i = 0; i < n; ++i) {
      sum += 2 * i;
      sum -= i;
      ++count;
      down--;
      if (i % 10 == 0)
        line(out, i);
    }
  }
  cilk::opadd_reducer<int> fibs = 0;
  fib(20, fibs);
  std::printf("sum=%ld count=%ld down=%d fib=%d\n", sum, count, down, fibs);
  return 0;
}
