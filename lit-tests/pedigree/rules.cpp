// Verify that every strand's pedigree and every __cilkrts_get_dprand()
// value follow the documented rules (docs/pedigrees.md) at every worker
// count, with and without forced steals: the program keeps its own model
// of each strand's pedigree, updated by hand at each spawn, sync, loop and
// bump, and compares the runtime's pedigree with it and each draw with a
// DotMix of the model computed here, independently of the runtime. The
// constructs: spawns and calls of spawning functions, explicit and
// implicit syncs, cilk_scope, spawned statements and lambdas, cilk_for at
// several grains, nested and with spawns inside, weft::parallel_for,
// reducers whose callbacks draw numbers themselves, a thread that is not a
// worker, a seed and the table made again; also in the analyses' builds.
//
// RUN: %weftcxx --weft-pedigrees -O2 %s -o %t
// RUN: %same-at-every-p %t | FileCheck %s
// RUN: %weftcxx -fopencilk-enable-pedigrees -O0 %s -o %t.O0
// RUN: %same-at-every-p %t.O0 | FileCheck %s
// RUN: %weftcxx --weft-pedigrees -O1 -fsanitize=address %s -o %t.asan
// RUN: %same-at-every-p %t.asan | FileCheck %s
// The analyses, which run on one worker, keep the same pedigrees; the race
// detector finds the program free of races.
// RUN: %weftcxx --weft-pedigrees --weft-race -O1 %s -o %t.race
// RUN: %t.race > %t.race.out 2> %t.race.err
// RUN: FileCheck %s < %t.race.out
// RUN: FileCheck --check-prefix=RACE %s < %t.race.err
// RUN: %weftcxx --weft-pedigrees --weft-workspan -O2 %s -o %t.ws
// RUN: %t.ws 2> /dev/null | FileCheck %s
// RACE: weft-race: races found: 0
// CHECK: mismatches 0
// CHECK-NEXT: checks 5513

#include <cilk/cilk.h>
#include <cilk/cilk_api.h>
#include <weft/parallel_for.h>

#include <atomic>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

// ---- The model: DotMix written out from its definition ------------------

constexpr uint64_t kPrime = 0xffffffffffffffc5ull; // 2^64 - 59
constexpr uint64_t kSeed = 0x1234567890abcdefull;

uint64_t mix(uint64_t x) {
  for (int round = 0; round < 4; ++round) {
    x *= 2 * x + 1;
    x = (x << 32) | (x >> 32);
  }
  return x % kPrime;
}

uint64_t term(uint64_t level) { return mix(kSeed + (level % 4096)); }

uint64_t dotmix(const std::vector<uint64_t> &Terms) {
  unsigned __int128 Sum = mix(kSeed + 4096);
  for (size_t J = 0; J < Terms.size(); ++J)
    Sum = (Sum + (unsigned __int128)((Terms[J] + 1) % kPrime) * term(J)) %
          kPrime;
  return mix(uint64_t(Sum));
}

/// A strand's pedigree as the rules say it must be.
struct Ped {
  std::vector<uint64_t> Terms;
  /// The child of a spawn made now: [..., r, 0].
  Ped child() const {
    Ped C = *this;
    C.Terms.push_back(0);
    return C;
  }
  /// Iteration I of a parallel loop made now: [..., r, I, 0].
  Ped iteration(uint64_t I) const {
    Ped C = *this;
    C.Terms.push_back(I);
    C.Terms.push_back(0);
    return C;
  }
  void next() { ++Terms.back(); }
};

std::atomic<long> Checks{0}, Mismatches{0};
std::mutex Print;

void report(const char *What, const Ped &P) {
  if (Mismatches.fetch_add(1) >= 5)
    return;
  std::lock_guard<std::mutex> Lock(Print);
  std::printf("mismatch (%s) where the model says", What);
  for (uint64_t T : P.Terms)
    std::printf(" %" PRIu64, T);
  std::printf("\n");
}

/// Compares the runtime's pedigree with the model, then draws a number
/// (which advances both) and compares it with the model's DotMix.
void check(Ped &P) {
  Checks.fetch_add(1, std::memory_order_relaxed);
  __cilkrts_pedigree Leaf = __cilkrts_get_pedigree();
  std::vector<uint64_t> Got{Leaf.rank};
  for (const __cilkrts_pedigree *N = Leaf.parent; N; N = N->parent)
    Got.insert(Got.begin(), N->rank);
  if (Got != P.Terms)
    report("pedigree", P);
  P.next();
  if (__cilkrts_get_dprand() != dotmix(P.Terms))
    report("dprand", P);
}

// ---- The program ----------------------------------------------------------

void leaf(Ped P) { check(P); }

/// Called, not spawned: shares its caller's level.
long fib(int N, Ped &P) {
  check(P);
  if (N < 2)
    return N; // no child outstanding: no implicit sync
  Ped C = P.child();
  long X = cilk_spawn fib(N - 1, C);
  P.next();
  check(P);
  long Y = fib(N - 2, P);
  cilk_sync;
  P.next();
  check(P);
  return X + Y; // after a sync: no implicit sync either
}

/// Returns with a child outstanding: the implicit sync counts.
void implicitSync(Ped &P) {
  cilk_spawn leaf(P.child());
  P.next();
  check(P);
}

void scopes(Ped &P) {
  cilk_scope {
    cilk_spawn leaf(P.child());
    P.next();
    check(P);
  }
  P.next(); // the scope's end
  check(P);
  Ped C = P.child();
  cilk_spawn {
    check(C);
    cilk_spawn leaf(C.child());
    C.next();
    check(C);
  }
  P.next();
  Ped L = P.child();
  cilk_spawn [&L] { check(L); }();
  P.next();
  check(P);
  cilk_sync;
  P.next();
  check(P);
}

void loops(Ped &P, int N) {
  cilk_for (int I = 0; I < N; ++I) {
    Ped It = P.iteration(I);
    check(It);
    check(It);
  }
  P.next();
  check(P);
#pragma cilk grainsize 7
  cilk_for (int I = 0; I < N; ++I) {
    Ped It = P.iteration(I);
    check(It);
  }
  P.next();
#pragma cilk grainsize 1
  cilk_for (int I = 0; I < 10; ++I) {
    Ped It = P.iteration(I);
    check(It);
    cilk_for (int J = 0; J < 20; ++J) {
      Ped Inner = It.iteration(J);
      check(Inner);
    }
    It.next();
    check(It);
    cilk_spawn leaf(It.child());
    It.next();
    long F = fib(5, It);
    cilk_sync;
    It.next();
    check(It);
    (void)F;
  }
  P.next();
  weft::parallel_for(0, N, [&P](int I) {
    Ped It = P.iteration(I);
    check(It);
  });
  P.next();
  check(P);
  __cilkrts_bump_worker_rank();
  P.next();
  check(P);
}

/// A reducer whose callbacks draw numbers: they run when steals and syncs
/// call for them, and must not move any strand's pedigree.
void noisyIdentity(void *V) {
  __cilkrts_get_dprand();
  *static_cast<long *>(V) = 0;
}
void noisySum(void *L, void *R) {
  __cilkrts_bump_worker_rank();
  *static_cast<long *>(L) += *static_cast<long *>(R) + long(__cilkrts_get_dprand() & 0);
}

long reducers(Ped &P, int N) {
  long cilk_reducer(noisyIdentity, noisySum) Total = 0;
  cilk_for (int I = 0; I < N; ++I) {
    Ped It = P.iteration(I);
    check(It);
    Total += I;
  }
  P.next();
  check(P);
  return Total;
}

int main() {
  __cilkrts_dprand_set_seed(kSeed);
  Ped Main{{0, 0}};
  check(Main);
  long F = fib(14, Main);
  // Remade from the seed, the table is the same, and so is the sum that
  // the runtime derives again from the pedigree.
  __cilkrts_init_dprng();
  check(Main);
  implicitSync(Main);
  Main.next(); // the implicit sync at implicitSync's return
  check(Main);
  scopes(Main);
  loops(Main, 300);
  long R = reducers(Main, 500);
  // A thread that is not a worker numbers its own pedigrees: [1, ...].
  std::thread Other([] {
    Ped Own{{1, 0}};
    check(Own);
    fib(8, Own);
    loops(Own, 40);
  });
  Other.join();
  check(Main);
  std::printf("mismatches %ld\nchecks %ld\nfib %ld sum %ld\n",
              Mismatches.load(), Checks.load(), F, R);
}
