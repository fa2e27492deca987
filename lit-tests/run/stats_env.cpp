// Verify the runtime's settings and statistics: WEFT_STATS=1 prints one
// weft-stats line with the worker count and steal counters (steals happen at
// P=2 under forced steals) and the bound on fiber stacks (WEFT_MAX_STACKS, by
// default 16 per worker), bad values exit with status 2 and one clear line,
// and the process shuts down cleanly with no leak report under LeakSanitizer.
// RUN: %weftcxx -O2 %s -o %t
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %until-stolen %t 2>&1 | FileCheck --check-prefix=STATS %s
// STATS: fib(22) = 17711
// STATS: weft-stats: workers=2 threads=2 spawns=28656 steals={{[1-9][0-9]*}} steal_attempts={{[1-9][0-9]*}}
// RUN: env WEFT_NWORKERS=1 WEFT_STATS=1 %t 2>&1 | FileCheck --check-prefix=ONE %s
// ONE: weft-stats: workers=1 threads=1 spawns=28656 steals=0 steal_attempts=0
// RUN: env WEFT_NWORKERS=abc sh -c '%t; test $? -eq 2' 2>&1 | FileCheck --check-prefix=BADN %s
// BADN: weft: invalid WEFT_NWORKERS='abc': expected an integer from 1 to 256
// RUN: env WEFT_NWORKERS=0 sh -c '%t; test $? -eq 2' 2>&1 | FileCheck --check-prefix=ZERO %s
// ZERO: weft: invalid WEFT_NWORKERS='0'
// RUN: env WEFT_STATS=yes sh -c '%t; test $? -eq 2' 2>&1 | FileCheck --check-prefix=BADS %s
// BADS: weft: invalid WEFT_STATS='yes': expected 0 or 1
// RUN: env WEFT_STRESS=2 sh -c '%t; test $? -eq 2' 2>&1 | FileCheck --check-prefix=BADX %s
// BADX: weft: invalid WEFT_STRESS='2': expected 0 or 1
// RUN: env WEFT_FENCES=fast sh -c '%t; test $? -eq 2' 2>&1 | FileCheck --check-prefix=BADF %s
// BADF: weft: invalid WEFT_FENCES='fast': expected auto, symmetric or asymmetric
// RUN: env WEFT_MAX_STACKS=0 sh -c '%t; test $? -eq 2' 2>&1 | FileCheck --check-prefix=BADM %s
// BADM: weft: invalid WEFT_MAX_STACKS='0': expected a stack count from 1 to 1048576
// RUN: env WEFT_MAX_STACKS=many sh -c '%t; test $? -eq 2' 2>&1 | FileCheck --check-prefix=BADM2 %s
// BADM2: weft: invalid WEFT_MAX_STACKS='many'
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 WEFT_MAX_STACKS=5 %t 2>&1 | FileCheck --check-prefix=MAXS %s
// MAXS: fib(22) = 17711
// MAXS: weft-stats: workers=2 {{.*}} max_stacks=5 peak_mapped={{[0-9]+}} throttled={{[0-9]+}} membarriers={{[0-9]+}} fence_requests={{[0-9]+}} fenced_switches={{[0-9]+}} unfenced_switches={{[0-9]+}}{{$}}
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 %t 2>&1 | FileCheck --check-prefix=DEFS %s
// DEFS: weft-stats: workers=2 {{.*}} fences=adaptive {{.*}} max_stacks=32 peak_mapped={{[0-9]+}} throttled=0 membarriers={{[0-9]+}} fence_requests={{[0-9]+}} fenced_switches={{[0-9]+}} unfenced_switches={{[0-9]+}}{{$}}
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 WEFT_FENCES=symmetric %t 2>&1 | FileCheck --check-prefix=SYM %s
// SYM: fib(22) = 17711
// SYM: weft-stats: workers=2 {{.*}} fences=symmetric {{.*}} membarriers=0 fence_requests=0 fenced_switches=0 unfenced_switches=0{{$}}
// RUN: env WEFT_NWORKERS=2 WEFT_STATS=1 WEFT_FENCES=asymmetric %t 2>&1 | FileCheck --check-prefix=ASYM %s
// ASYM: fib(22) = 17711
// ASYM: weft-stats: workers=2 {{.*}} fences=asymmetric {{.*}} fence_requests=0 fenced_switches=0 unfenced_switches=0{{$}}
// RUN: %weftcxx -O1 -fsanitize=leak %s -o %t.lsan
// RUN: env WEFT_NWORKERS=4 WEFT_STRESS=1 %t.lsan 2>&1 | FileCheck --check-prefix=LSAN %s
// LSAN: fib(22) = 17711
// LSAN-NOT: LeakSanitizer
#include <cilk/cilk.h>
#include <cstdio>

long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

int main() {
  std::printf("fib(22) = %ld\n", fib(22));
  return 0;
}
