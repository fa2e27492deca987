// Verify a C program that never spawns, built for the work/span analysis
// (which defines __weft_workspan__ and __cilkscale__, as well as __weft__):
// the runtime's analysis is linked all the same (every module built in
// workspan mode refers to it), the program's row has parallelism exactly 1
// and a region taken with wsp_sub() is dumped in C. The CSV goes to the file
// CILKSCALE_OUT names (OpenCilk's variable) when WEFT_WORKSPAN_OUT is unset,
// and to WEFT_WORKSPAN_OUT when both are. A bad clock name, or a CSV file
// that cannot be written, is one line and exit status 2.
// RUN: %weftcc --weft-workspan -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: rm -f %t.cilkscale.csv %t.weft.csv
// RUN: env CILKSCALE_OUT=%t.cilkscale.csv %t 2> /dev/null
// RUN: FileCheck --check-prefix=CSV %s < %t.cilkscale.csv
// RUN: env CILKSCALE_OUT=%t.cilkscale.csv WEFT_WORKSPAN_OUT=%t.weft.csv %t 2> /dev/null
// RUN: FileCheck --check-prefix=CSV %s < %t.weft.csv
// RUN: not env WEFT_WORKSPAN_CLOCK=sundial %t 2>&1 | FileCheck --check-prefix=BADCLOCK %s
// RUN: not env WEFT_WORKSPAN_OUT=%t.missing/out.csv %t 2>&1 | FileCheck --check-prefix=BADOUT %s
#include <cilk/cilkscale.h>

#include <stdio.h>

#if !defined(__weft_workspan__) || !defined(__cilkscale__) || !defined(__weft__)
#error "--weft-workspan defines __weft_workspan__ and __cilkscale__"
#endif

static volatile unsigned long Iterations = 300000;

static unsigned long burn(void) {
  unsigned long X = 1;
  for (unsigned long I = 0; I < Iterations; ++I)
    X = (X * 6364136223846793005ul + 1442695040888963407ul) ^ (X >> 29);
  return X;
}

int main(void) {
  wsp_t Start = wsp_getworkspan();
  unsigned long R = burn();
  wsp_t End = wsp_getworkspan();
  wsp_dump(wsp_sub(End, Start), "burn");
  printf("done %lu\n", R & 1);
  return 0;
}

// CHECK: done
// CHECK-NEXT: weft-workspan: work, span and parallelism on one worker
// CHECK-NEXT: tag
// CHECK-NEXT: {{^burn +0\.[0-9]+ +0\.[0-9]+ +1\.00 +0\.[0-9]+ +1\.00$}}
// CHECK-NEXT: {{^\(program\) +0\.[0-9]+ +0\.[0-9]+ +1\.00 +0\.[0-9]+ +1\.00$}}

// CSV: tag,work (seconds),span (seconds),parallelism,burdened_span (seconds),burdened_parallelism
// CSV-NEXT: {{^burn,0\.[0-9]+,0\.[0-9]+,1,0\.[0-9]+,1$}}
// CSV-NEXT: {{^,0\.[0-9]+,0\.[0-9]+,1,0\.[0-9]+,1$}}

// BADCLOCK: weft: invalid WEFT_WORKSPAN_CLOCK='sundial': expected fast or cpu
// BADOUT: weft: cannot write WEFT_WORKSPAN_OUT='{{.*}}missing/out.csv': No such file or directory
