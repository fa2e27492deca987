/* Verify that --weft-race finds a race inside accesses that race mode
 * checks as ranges: at -O2 each unrolled, vectorized row loop below is one
 * range check per row (plugin/finish/RaceRanges.cpp, the IR check), and
 * the child's update of row 1 races with the continuation's sum of the
 * same row, repeated so that the detector's range filter sees each range
 * again; rows 0 and 2, which the child and the continuation share with no
 * one, do not race.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 %s -S -emit-llvm -o - \
 * RUN:   | FileCheck --check-prefix=IR %s
 * IR-DAG: call void @__weft_race_write_range(ptr {{.*}}, i64 {{[0-9]+}})
 * IR-DAG: call void @__weft_race_read_range(ptr {{.*}}, i64 {{[0-9]+}})
 * CHECK: 2048
 * CHECK: weft-race:
 */
#include <cilk/cilk.h>
#include <stdio.h>

enum { Columns = 32, Rounds = 4 };
static double rows[3][Columns];

__attribute__((noinline)) void scale(double *restrict row, double by) {
  for (int round = 0; round < Rounds; ++round)
    for (int j = 0; j < Columns; ++j)
      row[j] = row[j] * by + 1.0; // CHECK-DAG: write{{.*}}row_ranges.c:[[@LINE]]:
}

__attribute__((noinline)) double sum(const double *restrict row) {
  double total = 0;
  for (int round = 0; round < Rounds; ++round)
    for (int j = 0; j < Columns; ++j)
      total += row[j]; // CHECK-DAG: read{{.*}}row_ranges.c:[[@LINE]]:
  return total;
}

int main(void) {
  cilk_spawn scale(rows[0], 2.0);
  cilk_spawn scale(rows[1], 2.0);
  double total = sum(rows[1]) + sum(rows[2]);
  cilk_sync;
  printf("%.0f\n", total + sum(rows[0]) / 15.0);
  return 0;
}
