// Verify OpenCilk 2's reducer headers as Weft provides them (classes, not
// the cilk_reducer qualifier): cilk::opadd_reducer<T> updated with +=, -=,
// ++ and read by conversion, and cilk::ostream_reducer<char>, whose output
// must come out in serial order, compared with the serial elision at
// P=1,2,4 with and without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 4000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 4000
// CHECK: i=3990
// CHECK: sum=7998000 count=4000 down=-4000
#include <cilk/cilk.h>
#include <cilk/opadd_reducer.h>
#include <cilk/ostream_reducer.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000;
  cilk::opadd_reducer<long> sum = 0;
  cilk::opadd_reducer<long> count;
  cilk::opadd_reducer<int> down = 0;
  {
    cilk::ostream_reducer<char> out(std::cout);
    cilk_for (long i = 0; i < n; ++i) {
      sum += 2 * i;
      sum -= i;
      ++count;
      down--;
      if (i % 10 == 0)
        out << "i=" << i << '\n';
    }
  }
  long total = sum;
  std::printf("sum=%ld count=%ld down=%d\n", total, count.get_value(),
              static_cast<int>(down));
  return 0;
}
