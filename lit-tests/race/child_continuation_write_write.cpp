// Verify that --weft-race reports a write/write race between a spawned
// child and its parent's continuation on a global, names both lines, and
// exits with 66; and that the report holds once per pair of lines, though
// the racing statements run many times.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 %s -o %tn
// RUN: %expect-races 1 66 %tn | FileCheck --check-prefix=NODEBUG %s
// RUN: env WEFT_RACE_EXITCODE=7 %expect-races 1 7 %t2 | FileCheck %s
// CHECK: weft-race:
// NODEBUG: weft-race:
// NODEBUG-DAG: write{{.*}}set_many
// NODEBUG-DAG: write{{.*}}main
#include <cilk/cilk.h>
#include <cstdio>

int counter;

__attribute__((noinline)) void set_many(int n) {
  for (int i = 0; i < n; ++i)
    counter = i; // CHECK-DAG: write{{.*}}child_continuation_write_write.cpp:[[@LINE]]:
}

int main() {
  cilk_spawn set_many(100);
  for (int i = 0; i < 100; ++i)
    counter = -i; // CHECK-DAG: write{{.*}}child_continuation_write_write.cpp:[[@LINE]]:
  cilk_sync;
  std::printf("%d\n", counter);
  return 0;
}
