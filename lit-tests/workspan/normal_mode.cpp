// Verify <cilk/cilkscale.h> outside workspan mode, where a program written
// for Cilkscale must compile and run unchanged: without the plugin (the
// serial elision, in C++ and C, with clang and gcc) and with it in normal
// mode, every reading is zero, wsp_dump() prints nothing, `os << w` prints
// nothing and no report is printed. Only --weft-workspan defines
// __weft_workspan__ and __cilkscale__ (serial_program.c).
// RUN: %clangxx -O2 -Wno-unknown-pragmas %s -o %t.serial
// RUN: %t.serial 2>&1 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.normal
// RUN: %t.normal 2>&1 | FileCheck %s
// RUN: %clang -x c -O2 -Wno-unknown-pragmas -fsyntax-only %s
// RUN: %if gcc %{ g++ -I%S/../../include -O2 -Wno-unknown-pragmas %s -o %t.gcc %}
// RUN: %if gcc %{ %t.gcc 2>&1 | FileCheck %s %}
#include <cilk/cilk.h>
#include <cilk/cilkscale.h>

#include <stdio.h>
#if defined(__weft_workspan__) || defined(__cilkscale__)
#error "workspan mode's macros outside workspan mode"
#endif
#ifdef __cplusplus
#include <iostream>
#endif

static long fib(long N) {
  if (N < 2)
    return N;
  long X = cilk_spawn fib(N - 1);
  long Y = fib(N - 2);
  cilk_sync;
  return X + Y;
}

int main(void) {
  wsp_t Start = wsp_getworkspan();
  long R = fib(20);
  wsp_t End = wsp_getworkspan();
  wsp_t Region = wsp_sub(End, Start);
  wsp_dump(Region, "fib");
  printf("fib %ld work %lld span %lld bspan %lld zero %d\n", R,
         (long long)Region.work, (long long)Region.span,
         (long long)Region.bspan, wsp_add(Region, wsp_zero()).work == 0);
#ifdef __cplusplus
  std::cout << "[" << (End - Start) << "]" << std::endl;
#endif
  return 0;
}

// CHECK: fib 6765 work 0 span 0 bspan 0 zero 1
// CHECK-NEXT: []
// CHECK-NOT: {{.}}
