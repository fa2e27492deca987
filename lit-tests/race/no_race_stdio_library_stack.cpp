// Verify that what a library that was not built for the detector writes on
// its own stack through a checked C library function is forgotten when
// its frames die, as an instrumented frame's writes are: libstdc++ formats
// a double into a buffer in its own frame with vsnprintf (std::cout,
// std::ostringstream), std::to_string into an alloca() buffer of an inline
// frame, and the iterations of a cilk_for, and spawned children and their
// continuations, reuse those stack addresses. No race, at -O0 and -O2.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 0 0 %t2 | FileCheck %s
// CHECK: 7 3.500000
// CHECK-NEXT: item 7 10.5
// CHECK: item 2 3
// CHECK-NEXT: 5
// CHECK-NEXT: weft-race: races found: 0
#include <cilk/cilk.h>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

static void show(int i) {
  char buf[32];
  snprintf(buf, sizeof buf, "item %d", i);
  int n;
  sscanf(buf, "item %d", &n);
  std::ostringstream os;
  os << 1.5 * n;
  printf("%s %s\n", buf, os.str().c_str());
}

int main() {
  cilk_for (int i = 0; i < 8; ++i) {
    char local[16];
    snprintf(local, sizeof local, "%d", i);
    std::string s = std::to_string(i * 0.5);
    printf("%s %s\n", local, s.c_str());
    show(i);
  }
  for (int k = 0; k < 3; ++k) {
    cilk_spawn show(k);
    std::cout << 2.5 * k << std::endl;
  }
  cilk_sync;
  return 0;
}
