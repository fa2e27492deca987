// Verify that the ways Clang takes source in keep the spawns: a header
// forced in with -include, a .inl file #included mid-file, a #line
// directive, and -D on the command line. The build matches the serial
// elision at P=1,2,4 with and without stress, and spawns exactly as often
// as the build that #includes the header normally (at one worker the count
// is the program's, whatever the schedule). Before the fix, the -include
// build spawned nothing: __weft__ was defined after the forced header.
// diag/serial_keywords.test has the ways that are errors (precompiled
// headers, preprocessed input, -U__weft__).
//
// RUN: %clangxx -O2 -DCOUNT=2000 -include %S/Inputs/forced_algo.h %s -o %t.serial
// RUN: %weftcxx -O2 -DCOUNT=2000 -DINCLUDE_NORMALLY %s -o %t.normal
// RUN: %weftcxx -O2 -DCOUNT=2000 -include %S/Inputs/forced_algo.h %s -o %t.include
// RUN: %run-check %t.include %t.serial | FileCheck --check-prefix=MATCH %s
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.normal 2>&1 >/dev/null | grep -o 'spawns=[0-9]*' > %t.normal.spawns
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t.include 2>&1 >/dev/null | grep -o 'spawns=[0-9]*' > %t.include.spawns
// RUN: diff %t.normal.spawns %t.include.spawns
// RUN: FileCheck --check-prefix=SPAWNS %s < %t.include.spawns
//
// MATCH: run-check: {{.*}} matches the serial elision
// SPAWNS: spawns={{[1-9][0-9]+}}

#ifdef INCLUDE_NORMALLY
#include "Inputs/forced_algo.h"
#endif

#include "Inputs/forced_body.inl"

#line 1000 "renamed_by_line_directive.cpp"
int main() {
  static long Values[COUNT];
  forced_parallel_for_1 (long I = 0; I < COUNT; ++I)
    Values[I] = I % 7;
  std::printf("squares %ld\n", forcedSquares(COUNT));
  std::printf("fib %ld\n", forcedFib(20L));
  std::printf("sum %ld\n", inlSum(Values, COUNT));
  return 0;
}
