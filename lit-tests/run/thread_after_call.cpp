// Verify the thread rules that docs/scaling-out.md gives for libraries that
// care which thread calls them (MPI under MPI_THREAD_FUNNELED, GUI
// toolkits), under forced steals at P=2:
// (a) a function that does not spawn gets its own thread back from every
//     call into spawning code: main, on the mapped main stack and on its
//     own stack (WEFT_MAIN_STACK_KB=0), and a std::thread of the program's;
// (b) inside a spawning function, the code after a cilk_sync may run on
//     another thread than the code before its spawn. The program calls
//     until it has seen that (a steal needs the thief to get a core).
// mpi/thread_rules.cpp checks the same with MPI_Is_thread_main.
// RUN: %weftcxx -O2 %s -o %t
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 %t | FileCheck %s
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_MAIN_STACK_KB=0 %t | FileCheck %s
// RUN: %weftcxx -O0 %s -o %t.O0
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 %t.O0 | FileCheck %s
// CHECK: (a) main kept its thread across every call: yes
// CHECK-NEXT: (a) a std::thread kept its thread across every call: yes
// CHECK-NEXT: (b) after a cilk_sync, another thread in some call: yes
#include <cilk/cilk.h>
#include <chrono>
#include <cstdio>
#include <thread>

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

/// Spawning code: whether the code after its sync ran on another thread
/// than the code before its spawn. The continuation is the longer part, so
/// that a thief that takes it usually reaches the sync last.
static bool continuesElsewhere() {
  std::thread::id before = std::this_thread::get_id();
  long x = cilk_spawn fib(4);
  long y = fib(12);
  cilk_sync;
  return std::this_thread::get_id() != before && x + y == 3 + 144;
}

struct Seen {
  bool keptThread = true;
  bool otherAfterSync = false;
};

/// A caller that does not spawn: calls until it has seen (b), at least 20
/// times, for at most 60 seconds.
static Seen callRepeatedly() {
  Seen seen;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int call = 0; call < 100000; ++call) {
    std::thread::id before = std::this_thread::get_id();
    seen.otherAfterSync |= continuesElsewhere();
    seen.keptThread &= std::this_thread::get_id() == before;
    if ((call >= 20 && seen.otherAfterSync) ||
        std::chrono::steady_clock::now() > deadline)
      break;
  }
  return seen;
}

static const char *yesNo(bool b) { return b ? "yes" : "no"; }

int main() {
  Seen fromMain = callRepeatedly();
  Seen fromThread;
  std::thread other([&] { fromThread = callRepeatedly(); });
  other.join();
  std::printf("(a) main kept its thread across every call: %s\n",
              yesNo(fromMain.keptThread));
  std::printf("(a) a std::thread kept its thread across every call: %s\n",
              yesNo(fromThread.keptThread));
  std::printf("(b) after a cilk_sync, another thread in some call: %s\n",
              yesNo(fromMain.otherAfterSync || fromThread.otherAfterSync));
  return 0;
}
