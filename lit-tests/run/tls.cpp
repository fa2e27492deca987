// Verify thread_local variables in spawning functions. After a steal the
// continuation runs on another thread, so an address of a thread_local
// computed before a spawn or a sync must not be reused after it (LLVM has
// cached thread-local addresses across coroutine suspend points). After
// every spawn and every sync, the spawning function takes &var and compares
// it with the address a noinline helper returns on the current thread, for a
// namespace-scope thread_local, an element of a thread_local array, a
// function-local static thread_local and a thread_local with a dynamic
// initialiser (accessed through its wrapper); the mismatch count must be 0.
// The spawning functions also count events (each leaf, and after each spawn
// and sync) in the current thread's counter through the dynamic
// thread_local, and the counters summed over all threads must equal the
// serial count (a stale address would bump another thread's counter with a
// plain load and store, losing counts).
// The output must match the serial elision at P=1,2,4 with and without
// stress, and steals must really happen (WEFT_STATS at P=2 under stress).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 22
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_STATS=1 %until-stolen %t.o2 22 2>&1 | FileCheck --check-prefix=STATS %s
// STATS: address mismatches: 0
// STATS: weft-stats: workers=2 threads=2 spawns={{[1-9][0-9]*}} steals={{[1-9][0-9]*}}
// RUN: %weftcxx -O3 %s -o %t.o3
// RUN: %run-check %t.o3 %t.serial 22
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 22
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 22
//
// Every call to fib here is spawned; an ordinary call to a spawning
// function followed by thread_local use is run/tls_after_call.cpp.
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

static std::atomic<long> Mismatches{0};
static std::atomic<long> Checks{0};

// Plain thread_locals: constant-initialised, addressed directly.
thread_local long TlsVar;
thread_local long TlsArr[8];

// A function-local static thread_local.
static long *local_static() {
  static thread_local long Counter;
  return &Counter;
}

// A thread_local with a dynamic initialiser (reached through its TLS wrapper)
// that registers its counter, so main can sum the counters of all threads;
// a thread that exits hands its count over first.
static std::mutex RegistryLock;
static std::vector<const std::atomic<long> *> Registry;
static std::atomic<long> Retired{0};
struct Registered {
  std::atomic<long> events{0};
  Registered() {
    std::lock_guard<std::mutex> g(RegistryLock);
    Registry.push_back(&events);
  }
  ~Registered() {
    std::lock_guard<std::mutex> g(RegistryLock);
    for (auto &p : Registry)
      if (p == &events)
        p = nullptr;
    Retired += events.load();
  }
};
thread_local Registered TlsDyn;

// The addresses on the calling thread, computed where the compiler cannot
// reuse a value from the spawning function.
__attribute__((noinline)) static long *addr_var() { return &TlsVar; }
__attribute__((noinline)) static long *addr_arr() { return &TlsArr[3]; }
__attribute__((noinline)) static long *addr_local() { return local_static(); }
__attribute__((noinline)) static const void *addr_dyn() { return &TlsDyn; }

// Called in the spawning function after each spawn and sync with the
// addresses it computed there.
__attribute__((noinline)) static void check(long *var, long *arr, long *loc,
                                            const void *dyn) {
  long bad = (var != addr_var()) + (arr != addr_arr()) + (loc != addr_local()) +
             (dyn != addr_dyn());
  Mismatches.fetch_add(bad, std::memory_order_relaxed);
  Checks.fetch_add(1, std::memory_order_relaxed);
}

// Counts an event on the current thread: a plain load and store, so two
// threads bumping one counter (through a stale address) would lose counts.
static inline void bump(std::atomic<long> &counter) {
  counter.store(counter.load(std::memory_order_relaxed) + 1,
                std::memory_order_relaxed);
}

long fib(long n) {
  // Addresses taken before the first spawn; the compiler may want to reuse
  // them afterwards.
  long *v0 = &TlsVar;
  *v0 += 1;
  TlsArr[3] += 1;
  if (n < 2) {
    bump(TlsDyn.events);
    return n;
  }
  long x = cilk_spawn fib(n - 1);
  check(&TlsVar, &TlsArr[3], local_static(), &TlsDyn);
  bump(TlsDyn.events);
  TlsVar += 2;
  *local_static() += 1;
  long y = cilk_spawn fib(n - 2);
  check(&TlsVar, &TlsArr[3], local_static(), &TlsDyn);
  TlsArr[3] += 1;
  bump(TlsDyn.events);
  cilk_sync;
  check(&TlsVar, &TlsArr[3], local_static(), &TlsDyn);
  bump(TlsDyn.events);
  TlsVar += 1;
  return x + y;
}

// Spawns in a loop, a sync inside the loop every few iterations, and
// thread_local addresses taken between them.
long loop(long n) {
  long out[64] = {};
  for (long i = 0; i < n && i < 64; ++i) {
    out[i] = cilk_spawn fib(i % 12);
    check(&TlsVar, &TlsArr[3], local_static(), &TlsDyn);
    bump(TlsDyn.events);
    TlsArr[3] += i;
    if (i % 5 == 4) {
      cilk_sync;
      check(&TlsVar, &TlsArr[3], local_static(), &TlsDyn);
      bump(TlsDyn.events);
    }
  }
  cilk_sync;
  check(&TlsVar, &TlsArr[3], local_static(), &TlsDyn);
  bump(TlsDyn.events);
  long h = 0;
  for (long v : out)
    h = h * 31 + v;
  return h;
}

static long total_events() {
  std::lock_guard<std::mutex> g(RegistryLock);
  long sum = Retired.load();
  for (auto *p : Registry)
    if (p)
      sum += p->load();
  return sum;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? std::atol(argv[1]) : 22;
  long before = total_events();
  long f = fib(N);
  std::printf("fib(%ld) = %ld, events %ld\n", N, f, total_events() - before);
  before = total_events();
  long l = loop(3 * N);
  std::printf("loop(%ld) = %ld, events %ld\n", 3 * N, l, total_events() - before);
  std::printf("address checks: %ld\n", Checks.load());
  std::printf("address mismatches: %ld\n", Mismatches.load());
  return 0;
}
