// Deterministic reservations, the construct of a hang reported on a public
// parallel-algorithms library: rounds of a speculative loop in which every
// iteration reserves shared cells with a compare-and-swap write-min, then
// commits only where it won, and the losers carry over to the next round.
// Each reserve step filters its own set with a nested parallel pack
// (cilk_for counts, a prefix sum, cilk_for writes) inside the round's
// cilk_for, and every round allocates its sequences anew, so frames, heap
// blocks and workers are reused across steals all the time.
//
// The result is internally deterministic: the lowest iteration wins every
// reservation, whatever the schedule, so a greedy set cover and a greedy
// maximal independent set equal the serial elision's at every worker count.
// A lost or stale write under a steal (a reservation left behind, a stale
// set) shows as a different answer or as an iteration that can never win;
// the round guard turns the latter, a livelock, into a failure instead of a
// hang. The reported hang itself came from the program: its element array
// was shorter than its largest element, and the writes past its end landed
// in other heap objects (docs/debugging.md). The ASan build checks that
// this program has no such write.
//
// RUN: %weftcxx -O2 %s -o %t
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %run-check %t %t.serial 3000 12 | FileCheck %s
// RUN: %run-check %t %t.serial 20000 6 | FileCheck %s
// RUN: %weftcxx -O1 -g -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 3000 12 | FileCheck %s
// CHECK: run-check: {{.*}} matches the serial elision

#include <cilk/cilk.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

namespace {

constexpr int kFree = std::numeric_limits<int>::max(); // no reservation
constexpr int kCovered = -1;                           // taken for good

/// Lowers *Cell to Value unless it is already lower; true if it wrote.
bool writeMin(std::atomic<int> &Cell, int Value) {
  int Seen = Cell.load();
  while (Value < Seen)
    if (Cell.compare_exchange_weak(Seen, Value))
      return true;
  return false;
}

/// The elements of In that Keep accepts, in order: per-block counts in a
/// cilk_for, a serial prefix sum, and a cilk_for that writes each block's
/// share. Keep may read cells other iterations write; each element is
/// judged once, so the count and the writes agree.
template <typename KeepFn>
std::vector<int> parallelFilter(const std::vector<int> &In, KeepFn Keep) {
  const long Block = 64;
  long N = static_cast<long>(In.size());
  long Blocks = (N + Block - 1) / Block;
  std::vector<char> Kept(N);
  std::vector<long> Offsets(Blocks + 1, 0);
  cilk_for (long B = 0; B < Blocks; ++B) {
    long Count = 0;
    for (long I = B * Block; I < std::min(N, (B + 1) * Block); ++I)
      Count += Kept[I] = Keep(In[I]);
    Offsets[B + 1] = Count;
  }
  for (long B = 0; B < Blocks; ++B)
    Offsets[B + 1] += Offsets[B];
  std::vector<int> Out(Offsets[Blocks]);
  cilk_for (long B = 0; B < Blocks; ++B) {
    long At = Offsets[B];
    for (long I = B * Block; I < std::min(N, (B + 1) * Block); ++I)
      if (Kept[I])
        Out[At++] = In[I];
  }
  return Out;
}

enum Status : char { Done, TryCommit };

/// Runs Reserve then Commit on iterations [0, N) in rounds; an iteration
/// whose commit fails goes round again. Exits the program if a round
/// makes no progress for too long (a livelock).
template <typename ReserveFn, typename CommitFn>
long speculativeFor(int N, ReserveFn Reserve, CommitFn Commit) {
  long RoundSize = std::max(1, N / 50), Rounds = 0;
  int Next = 0;
  std::vector<int> Carried;
  while (Next < N || !Carried.empty()) {
    long Fresh = std::min<long>(RoundSize - (long)Carried.size(), N - Next);
    std::vector<int> Round = Carried;
    for (long I = 0; I < std::max(0l, Fresh); ++I)
      Round.push_back(Next + (int)I);
    Next += (int)std::max(0l, Fresh);
    long Size = (long)Round.size();
    std::vector<Status> Keep(Size);
    cilk_for (long I = 0; I < Size; ++I)
      Keep[I] = Reserve(Round[I]);
    std::vector<char> Failed(Size);
    cilk_for (long I = 0; I < Size; ++I)
      Failed[I] = Keep[I] == TryCommit && !Commit(Round[I]);
    Carried.clear();
    for (long I = 0; I < Size; ++I)
      if (Failed[I])
        Carried.push_back(Round[I]);
    if (5 * (long)Carried.size() < Size)
      RoundSize *= 2;
    if (++Rounds > 20l * N + 100) {
      std::printf("livelock: %zu iterations never commit\n", Carried.size());
      std::exit(1);
    }
  }
  return Rounds;
}

unsigned long Seed = 12345;
unsigned nextRandom() {
  Seed = Seed * 6364136223846793005ul + 1442695040888963407ul;
  return static_cast<unsigned>(Seed >> 33);
}

/// Greedy set cover in the manner of Blelloch, Peng and Tangwongsan: a set
/// joins when it wins at least Low of its still-uncovered elements.
void setCover(int Elements, int Sets) {
  std::vector<std::vector<int>> Members(Sets);
  for (auto &M : Members) {
    int Size = 4 + nextRandom() % 60;
    for (int K = 0; K < Size; ++K)
      M.push_back(nextRandom() % Elements);
  }
  std::vector<std::atomic<int>> Owner(Elements);
  for (auto &O : Owner)
    O.store(kFree);
  std::vector<char> Chosen(Sets, 0);
  const long Low = 3;
  auto Reserve = [&](int S) {
    Members[S] = parallelFilter(
        Members[S], [&](int E) { return Owner[E].load() != kCovered; });
    if ((long)Members[S].size() < Low)
      return Done;
    for (int E : Members[S])
      writeMin(Owner[E], S);
    return TryCommit;
  };
  auto Commit = [&](int S) {
    long Won = 0;
    for (int E : Members[S])
      Won += Owner[E].load() == S;
    bool Joins = Won >= Low;
    for (int E : Members[S])
      if (Owner[E].load() == S)
        Owner[E].store(Joins ? kCovered : kFree);
    Chosen[S] = Joins;
    return Joins;
  };
  long Rounds = speculativeFor(Sets, Reserve, Commit);
  unsigned long Hash = 0;
  long Count = 0, Covered = 0;
  for (int S = 0; S < Sets; ++S)
    if (Chosen[S])
      Hash = Hash * 1000003 + S, ++Count;
  for (auto &O : Owner) {
    if (O.load() != kCovered && O.load() != kFree)
      std::printf("stale reservation %d\n", O.load());
    Covered += O.load() == kCovered;
  }
  std::printf("set cover: %ld sets, %ld elements covered, hash %lu, %ld rounds\n",
              Count, Covered, Hash, Rounds);
}

/// Greedy maximal independent set: vertex V joins unless a lower neighbour
/// did; it reserves itself and its neighbours.
void independentSet(int Vertices, int Degree) {
  std::vector<std::vector<int>> Neighbours(Vertices);
  for (int V = 0; V < Vertices; ++V)
    for (int K = 0; K < Degree; ++K) {
      int U = nextRandom() % Vertices;
      if (U != V) {
        Neighbours[V].push_back(U);
        Neighbours[U].push_back(V);
      }
    }
  std::vector<std::atomic<int>> Owner(Vertices);
  for (auto &O : Owner)
    O.store(kFree);
  std::vector<std::atomic<char>> State(Vertices); // 0 undecided, 1 in, 2 out
  auto Reserve = [&](int V) {
    for (int U : Neighbours[V])
      if (State[U] == 1) {
        State[V] = 2;
        return Done;
      }
    writeMin(Owner[V], V);
    for (int U : Neighbours[V])
      writeMin(Owner[U], V);
    return TryCommit;
  };
  auto Commit = [&](int V) {
    bool Won = Owner[V].load() == V;
    for (int U : Neighbours[V])
      Won = Won && Owner[U].load() == V;
    if (Won)
      State[V] = 1;
    // Every reservation of V goes, won or not; a lower vertex may hold
    // others, which its own commit resets.
    if (Owner[V].load() == V)
      Owner[V].store(kFree);
    for (int U : Neighbours[V])
      if (Owner[U].load() == V)
        Owner[U].store(kFree);
    return Won;
  };
  long Rounds = speculativeFor(Vertices, Reserve, Commit);
  long In = 0;
  unsigned long Hash = 0;
  for (int V = 0; V < Vertices; ++V)
    if (State[V] == 1)
      ++In, Hash = Hash * 1000003 + V;
  std::printf("independent set: %ld vertices, hash %lu, %ld rounds\n", In, Hash,
              Rounds);
}

} // namespace

int main(int argc, char **argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 3000;
  int Repeats = argc > 2 ? std::atoi(argv[2]) : 4;
  for (int R = 0; R < Repeats; ++R) {
    setCover(N, N / 2);
    independentSet(N, 4);
  }
  return 0;
}
