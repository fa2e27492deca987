// Verify pedigrees through fast clones whose last recursive call became a
// loop (plugin/finish/SpawnTailCalls.cpp): fib's shape, a spawn, then a
// call of the function itself followed by nothing but the sync and the
// return. Each round of the loop owes its sync's count until the loop
// returns; a count paid too early, too late or not at all shows in the
// ranks. Every leaf records its pedigree and a draw, main checks its own
// after each call, and all of it is compared with a serial model of the
// rules (docs/pedigrees.md), at every worker count, with and without
// forced steals; and the loops are made.
//
// RUN: %weftcxx --weft-pedigrees -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// IR-LABEL: define {{.*}} @_ZN12_GLOBAL__N_13fibEim(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_ZN12_GLOBAL__N_15countEim(
// IR: !weft.tail.loop
// IR-LABEL: define {{.*}} @_ZN12_GLOBAL__N_14walkEim(
// IR: !weft.tail.loop
// RUN: %weftcxx --weft-pedigrees -O2 %s -o %t
// RUN: %same-at-every-p %t | FileCheck %s
// RUN: %weftcxx --weft-pedigrees -O1 -fsanitize=address %s -o %t.asan
// RUN: %same-at-every-p %t.asan | FileCheck %s
// CHECK: mismatches 0
// CHECK-NEXT: leaves 2584 1597 2131
// CHECK-NEXT: results 1597 2131

#include <cilk/cilk.h>
#include <cilk/cilk_api.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

namespace {

using Terms = std::vector<uint64_t>;

/// What a leaf saw: its pedigree, and the number it drew then.
struct Sight {
  Terms Pedigree;
  uint64_t Draw;
};

std::mutex Lock;
std::map<uint64_t, Sight> Seen;
long Mismatches = 0;
uint64_t Draws = 0;

Terms currentPedigree() {
  __cilkrts_pedigree Leaf = __cilkrts_get_pedigree();
  Terms Got{Leaf.rank};
  for (const __cilkrts_pedigree *N = Leaf.parent; N; N = N->parent)
    Got.insert(Got.begin(), N->rank);
  return Got;
}

void leaf(uint64_t Id) {
  Terms P = currentPedigree();
  uint64_t Draw = __cilkrts_get_dprand();
  std::lock_guard<std::mutex> Guard(Lock);
  Seen[Id] = {P, Draw};
}

// ---- The program: three loops' shapes -------------------------------------

long fib(int N, uint64_t Id) {
  if (N < 2) {
    leaf(Id);
    return N;
  }
  long X = cilk_spawn fib(N - 1, 2 * Id);
  long Y = fib(N - 2, 2 * Id + 1);
  cilk_sync;
  return X + Y;
}

/// No result: no accumulator beside the count.
void count(int N, uint64_t Id) {
  if (N < 2) {
    leaf(Id);
    return;
  }
  cilk_spawn count(N - 1, 2 * Id);
  count(N - 2, 2 * Id + 1);
  cilk_sync;
}

/// Two last calls, one on each side of a branch.
long walk(int N, uint64_t Id) {
  if (N < 2) {
    leaf(Id);
    return 1;
  }
  long X = cilk_spawn walk(N - 1, 2 * Id);
  long Y;
  if (N % 3 != 0)
    Y = walk(N - 2, 2 * Id + 1);
  else
    Y = walk(N - 3, 2 * Id + 1);
  cilk_sync;
  return X + Y;
}

// ---- The model: the rules, followed serially ------------------------------

struct Model {
  std::map<uint64_t, Terms> Pedigrees;

  /// A strand of level \p P reaches a leaf: it reads its pedigree, and its
  /// draw counts.
  void leaf(uint64_t Id, Terms &P) {
    Pedigrees[Id] = P;
    ++P.back();
  }

  /// One of the three functions, called with the caller's level \p P
  /// (calls are invisible), whose last call is made with \p Last(N).
  template <typename LastArgument>
  void run(int N, uint64_t Id, Terms &P, LastArgument Last) {
    if (N < 2) {
      leaf(Id, P);
      return;
    }
    Terms Child = P;
    Child.push_back(0); // the spawned child: [..., r, 0]
    run(N - 1, 2 * Id, Child, Last);
    ++P.back(); // the parent goes on at r + 1
    run(Last(N), 2 * Id + 1, P, Last);
    ++P.back(); // the sync, which may have had to wait
  }
};

/// Compares what the leaves saw with the model, and empties the record.
void compare(const Model &M) {
  for (auto &[Id, Expected] : M.Pedigrees) {
    auto It = Seen.find(Id);
    if (It == Seen.end() || It->second.Pedigree != Expected) {
      if (Mismatches++ < 5)
        std::printf("mismatch at leaf %" PRIu64 "\n", Id);
    } else {
      Draws = Draws * 31 + It->second.Draw; // the same at every P
    }
  }
  if (Seen.size() != M.Pedigrees.size() && Mismatches++ < 5)
    std::printf("%zu leaves ran, the model has %zu\n", Seen.size(),
                M.Pedigrees.size());
}

/// After main called one of the functions with \p N: compares what its
/// leaves saw, and main's pedigree, with the model, which advances \p Main
/// as the call did. Returns how many leaves ran.
template <typename LastArgument>
size_t checkCall(const char *Name, int N, Terms &Main, LastArgument Last) {
  Model M;
  M.run(N, 1, Main, Last);
  compare(M);
  size_t Leaves = Seen.size();
  Seen.clear();
  if (currentPedigree() != Main && Mismatches++ < 5)
    std::printf("main's pedigree after %s\n", Name);
  return Leaves;
}

} // namespace

int main() {
  Terms Main = currentPedigree();
  auto twoLess = [](int N) { return N - 2; };
  long Fib = fib(17, 1);
  size_t FibLeaves = checkCall("fib", 17, Main, twoLess);
  count(16, 1);
  size_t CountLeaves = checkCall("count", 16, Main, twoLess);
  long Walk = walk(18, 1);
  size_t WalkLeaves = checkCall("walk", 18, Main, [](int N) {
    return N % 3 != 0 ? N - 2 : N - 3;
  });

  std::printf("mismatches %ld\nleaves %zu %zu %zu\nresults %ld %ld\n"
              "draws %016" PRIx64 "\n",
              Mismatches, FibLeaves, CountLeaves, WalkLeaves, Fib, Walk, Draws);
}
