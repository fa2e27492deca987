// WEFT_DEBUG_HANG=S: when nothing moves for S seconds while work is
// outstanding, the runtime prints each worker's state to stderr, once per
// stall, and the program goes on.
//
// `serial` spins in main after the pool has started: worker 0 runs its own
// thread's code, the pool thread idles. `stolen` spins in a continuation
// that the pool thread stole (the child waits for the thief, so the steal
// happens at P=2): worker 1 runs the slow clone, named by the addr2line
// command the report gives, and main's stack is parked behind the stolen
// frame (the counts include what fib(20), run first, stole and parked
// at P=2, which varies with the load). `fib` keeps spawning at P=4 with
// stress for longer than the watchdog's period: no report. A bad value
// exits with status 2.
//
// RUN: %weftcxx -O2 -g %s -o %t
// RUN: env WEFT_DEBUG_HANG=1 WEFT_NWORKERS=2 %t serial 3 > %t.out 2> %t.serial.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=SERIAL %s < %t.serial.err
// RUN: env WEFT_DEBUG_HANG=1 WEFT_NWORKERS=2 %t stolen 3 > %t.out 2> %t.stolen.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=STOLEN %s < %t.stolen.err
// RUN: grep -o 'addr2line -f -C -e [^ ]* 0x[0-9a-f]*' %t.stolen.err | sh | FileCheck --check-prefix=NAME %s
// RUN: env WEFT_DEBUG_HANG=2 WEFT_NWORKERS=4 WEFT_STRESS=1 %t fib 3 > %t.out 2> %t.fib.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=FIB --allow-empty %s < %t.fib.err
// RUN: env WEFT_NWORKERS=2 %t serial 0.1 > %t.out 2> %t.off.err
// RUN: FileCheck --check-prefix=FIB --allow-empty %s < %t.off.err
// RUN: not env WEFT_DEBUG_HANG=soon %t serial 0 2>&1 | FileCheck --check-prefix=BAD %s
//
// OUT: result 6765
//
// SERIAL: weft: WEFT_DEBUG_HANG: no progress for 1 s (no spawn, steal, sync or completion) with work outstanding; 2 workers:
// SERIAL-NEXT: weft:   worker 0 (external thread): running program code: its own thread's (main, or a caller of spawning code); deque 0 frames
// SERIAL-NEXT: weft:   worker 1 (pool thread): {{sleeping|looking for work}}; deque 0 frames
// SERIAL-NEXT: weft:   parked stacks: 0; fiber stacks in use: {{[0-9]+}} of {{[0-9]+}}
// SERIAL-NEXT: weft:   worker(s) 0 ran program code without spawning, syncing or returning to the scheduler
// SERIAL-NOT: WEFT_DEBUG_HANG
//
// STOLEN: weft: WEFT_DEBUG_HANG: no progress for 1 s
// STOLEN-NEXT: weft:   worker 0 (external thread): {{sleeping|looking for work}}; deque 0 frames; fiber stacks {{[0-9]+}}; steals={{[0-9]+}} parks={{[1-9][0-9]*}}
// STOLEN-NEXT: weft:   worker 1 (pool thread): running program code: the stolen continuation of {{.*}}+0x{{[0-9a-f]+}} (addr2line -f -C -e {{.*}} 0x{{[0-9a-f]+}}); deque 0 frames; fiber stacks {{[0-9]+}}; steals={{[1-9][0-9]*}}
// STOLEN-NEXT: weft:   parked stacks: 1;
// STOLEN-NEXT: weft:   worker(s) 1 ran program code
// STOLEN-NOT: WEFT_DEBUG_HANG
//
// NAME: spinningContinuation(double)
//
// FIB-NOT: weft:
//
// BAD: weft: invalid WEFT_DEBUG_HANG='soon': expected 0 (off) or a number of seconds from 1 to 86400

#include <cilk/cilk.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

void spinFor(double Seconds) {
  Clock::time_point Start = Clock::now();
  while (secondsSince(Start) < Seconds) {
  }
}

long fib(long N) {
  if (N < 2)
    return N;
  long X = cilk_spawn fib(N - 1);
  long Y = fib(N - 2);
  cilk_sync;
  return X + Y;
}

std::atomic<bool> ContinuationStarted{false};

// The child: waits (at most 20 s, so the serial elision ends too) until a
// thief runs the continuation.
long waitForThief() {
  Clock::time_point Start = Clock::now();
  while (!ContinuationStarted.load() && secondsSince(Start) < 20) {
  }
  return fib(20);
}

long spinningContinuation(double Seconds) {
  long Result = cilk_spawn waitForThief();
  ContinuationStarted.store(true);
  spinFor(Seconds);
  cilk_sync;
  return Result;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  double Seconds = std::atof(argv[2]);
  long Result = fib(20); // starts the pool
  if (std::strcmp(argv[1], "serial") == 0) {
    spinFor(Seconds);
  } else if (std::strcmp(argv[1], "stolen") == 0) {
    Result = spinningContinuation(Seconds);
  } else if (std::strcmp(argv[1], "fib") == 0) {
    Clock::time_point Start = Clock::now();
    while (secondsSince(Start) < Seconds)
      Result = fib(20);
  }
  std::printf("result %ld\n", Result);
  return 0;
}
