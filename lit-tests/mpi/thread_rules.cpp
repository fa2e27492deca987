// Verify the two thread rules of docs/scaling-out.md in MPI ranks under
// MPI_THREAD_FUNNELED, with forced steals on 2 workers per rank:
// (a) a function that does not spawn gets its own thread back from every
//     call into spawning code, so its MPI calls stay on the main thread
//     (the thread id before and after each call, and MPI_Is_thread_main
//     after it);
// (b) inside a spawning function the code after a cilk_sync may run on
//     another thread, where MPI_Is_thread_main is false: such code must not
//     call MPI under MPI_THREAD_FUNNELED. The program calls until it has seen
//     that happen (a steal needs the thief to get a core; under forced
//     steals that takes a few calls, on a loaded machine a few more).
// Thread ids come from gettid, a system call made afresh each time
// (pthread_self, which glibc declares const, answers the same today, but a
// const call's result is one a compiler may reuse). run/thread_after_call.cpp
// checks the same rules without MPI.
// REQUIRES: mpi
// RUN: %weftcxx -O2 %s %mpi-cxxflags -o %t %mpi-libs
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 %mpirun -np 2 %t | FileCheck %s
// RUN: %weftcxx -O0 %s %mpi-cxxflags -o %t.O0 %mpi-libs
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 %mpirun -np 2 %t.O0 | FileCheck %s
// CHECK: (a) the caller kept its thread across every call: yes
// CHECK-NEXT: (a) MPI_Is_thread_main after every call: yes
// CHECK-NEXT: (b) after a cilk_sync, another thread in some call: yes
// CHECK-NEXT: (b) MPI_Is_thread_main false there: yes
#include <cilk/cilk.h>
#include <mpi.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <chrono>
#include <cstdio>

static long threadId() { return syscall(SYS_gettid); }

static bool isThreadMain() {
  int flag = 0;
  MPI_Is_thread_main(&flag);
  return flag != 0;
}

static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}

struct AfterSync {
  bool otherThread = false;
  bool threadMain = true;
};

/// Spawning code: reports whether the code after its sync ran on another
/// thread than the code before its spawn. The continuation is the longer
/// part, so that when a thief takes it, the thief usually reaches the sync
/// last and goes on past it itself.
static long spawnAndSync(AfterSync *seen) {
  long before = threadId();
  long x = cilk_spawn fib(4);
  long y = fib(12);
  cilk_sync;
  seen->otherThread = threadId() != before;
  seen->threadMain = isThreadMain();
  return x + y;
}

static bool allRanks(bool mine) {
  int in = mine, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return out != 0;
}

static const char *yesNo(bool b) { return b ? "yes" : "no"; }

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  bool keptThread = true, keptMain = true, sawOther = false,
       sawNotMain = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int call = 0; call < 100000; ++call) {
    long before = threadId();
    AfterSync seen;
    long sum = spawnAndSync(&seen);
    keptThread &= threadId() == before && sum == 3 + 144;
    keptMain &= isThreadMain();
    sawOther |= seen.otherThread;
    sawNotMain |= seen.otherThread && !seen.threadMain;
    if (call >= 20 && sawOther && sawNotMain)
      break;
    if (std::chrono::steady_clock::now() > deadline)
      break;
  }
  keptThread = allRanks(keptThread);
  keptMain = allRanks(keptMain);
  sawOther = allRanks(sawOther);
  sawNotMain = allRanks(sawNotMain);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::printf("(a) the caller kept its thread across every call: %s\n",
                yesNo(keptThread));
    std::printf("(a) MPI_Is_thread_main after every call: %s\n",
                yesNo(keptMain));
    std::printf("(b) after a cilk_sync, another thread in some call: %s\n",
                yesNo(sawOther));
    std::printf("(b) MPI_Is_thread_main false there: %s\n", yesNo(sawNotMain));
  }
  MPI_Finalize();
  return 0;
}
