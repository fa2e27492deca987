// Verify that weft-scale runs a program's work/span build once and its
// benchmark build (-fcilktool=cilkscale-benchmark) at each worker count,
// pairs their regions by tag (a tag dumped twice by occurrence), writes the
// CSV with Cilkscale's columns and a time and speedup per count, draws the
// plot, and checks each measured speedup against min(P, parallelism): a
// serial region's parallelism is 1, a parallel loop's far more, and a
// tolerance below zero makes every point a violation, which it reports
// with exit status 1. The passing run has a tolerance no scheduling noise
// reaches (a speedup up to ten times its bound): a serial region measured
// 1.35 times faster at 2 workers than at 1 on a loaded 2-core machine, so
// a tight tolerance would test the machine's load, not weft-scale. Each
// outcome of the check is thus tested without timing anything. The benchmark build alone writes `tag,time
// (seconds)` rows to stdout, the whole run's last with an empty tag.
//
// REQUIRES: gnuplot
// RUN: %weftcxx --weft-workspan -O2 %s -o %t.ws
// RUN: %weftcxx -fcilktool=cilkscale-benchmark -O2 %s -o %t.bench
// RUN: env WEFT_NWORKERS=2 %t.bench 200 | FileCheck --check-prefix=BENCH %s
// BENCH: tag,time (seconds)
// BENCH-NEXT: serial,0.{{[0-9]+}}
// BENCH-NEXT: parallel,0.{{[0-9]+}}
// BENCH-NEXT: parallel,0.{{[0-9]+}}
// BENCH-NEXT: result
// BENCH-NEXT: ,0.{{[0-9]+}}
//
// RUN: rm -f %t.csv %t.png
// RUN: %weft-scale -c %t.ws -b %t.bench --cpu-counts 1,2 --tolerance 9 \
// RUN:   --ocsv %t.csv --oplot %t.png --args 2000 | FileCheck %s
// CHECK: weft-scale: 4 regions at 1,2 workers: {{.*}}.csv, {{.*}}.png
// CHECK-NEXT: weft-scale: every speedup within min(P, parallelism)
// RUN: FileCheck --check-prefix=CSV %s < %t.csv
// CSV: tag,work (seconds),span (seconds),parallelism,burdened_span (seconds),burdened_parallelism,1c time (seconds),2c time (seconds),1c speedup,2c speedup
// CSV-NEXT: serial,{{[0-9.]+}},{{[0-9.]+}},1,{{.*}},1.0000,{{[0-9.]+$}}
// CSV-NEXT: parallel,{{[0-9.]+}},{{[0-9.]+}},{{[1-9][0-9]+(\.[0-9]+)?}},{{.*}},1.0000,{{[0-9.]+$}}
// CSV-NEXT: {{^}}parallel,
// CSV-NEXT: {{^}},{{[0-9.]+}},
// RUN: test -s %t.png
//
// RUN: not %weft-scale -c %t.ws -b %t.bench --cpu-counts 1,2 --tolerance -0.5 \
// RUN:   --ocsv %t.bad.csv --oplot %t.bad.png --args 200 | FileCheck --check-prefix=BAD %s
// BAD: weft-scale: bound violated: serial: speedup {{.*}} at 1 workers above the bound 1.00
// RUN: not %weft-scale -c %t.bench -b %t.bench --cpu-counts 1 --args 200 2>&1 \
// RUN:   | FileCheck --check-prefix=WRONG %s
// WRONG: weft-scale: {{.*}} is not a work/span build

#include <cilk/cilk.h>
#include <cilk/cilkscale.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

/// Per element, enough arithmetic that a region lasts some milliseconds.
double work(long i) {
  double x = double(i);
  for (int k = 0; k < 40; ++k)
    x = std::sqrt(x + k);
  return x;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) * 1000 : 200000;
  std::vector<double> v(n);
  wsp_t a = wsp_getworkspan();
  for (long i = 0; i < n; ++i)
    v[i] = work(i);
  wsp_t b = wsp_getworkspan();
  wsp_dump(b - a, "serial");
  for (int twice = 0; twice < 2; ++twice) {
    wsp_t c = wsp_getworkspan();
    cilk_for (long i = 0; i < n; ++i)
      v[i] += work(i + twice);
    wsp_dump(wsp_getworkspan() - c, "parallel");
  }
  double sum = 0;
  for (double x : v)
    sum += x;
  std::printf("result %.3f\n", sum);
}
