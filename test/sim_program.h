//===- sim_program.h - Fork-join programs for the schedule simulator ------===//
//
// A program is a set of procedures, each a list of actions run in order:
// `units` unit-time instructions (Work), a spawn or a call of another
// procedure, or a sync; after its last action every procedure syncs and
// returns, which is one more instruction. Procedures may be shared (fib(n)
// is one procedure however often it runs), so programs of millions of
// instructions stay small.
//
// The measures are those of the DAG whose nodes are these instructions,
// each taking one step (sim_schedule.h runs it the same way):
//   work   T1    the number of instructions;
//   span   Tinf  the most instructions on one path; a spawned child and the
//                continuation both start the step after the spawn, and a
//                sync runs the step after its last child returned;
//   deque  the most continuations a serial run has on its deque at once
//          (the spawn depth), the bound on each worker's deque;
//   frames the most activations a serial run has alive at once, S1.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TEST_SIM_PROGRAM_H
#define WEFT_TEST_SIM_PROGRAM_H

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

namespace sim {

struct Proc;

enum class Op : std::uint8_t { Work, Spawn, Call, Sync };

struct Action {
  Op op;
  std::int64_t units = 1;        // Work: instructions, at least 1
  const Proc *callee = nullptr;  // Spawn, Call
};

struct Proc {
  std::vector<Action> actions;
};

struct Measures {
  std::int64_t work = 0;
  std::int64_t span = 0;
  std::int64_t deque = 0;
  std::int64_t frames = 0;
};

class Program {
public:
  Proc *add() {
    Procs.push_back(std::make_unique<Proc>());
    return Procs.back().get();
  }
  void set_root(const Proc *P) { Root = P; }
  const Proc *root() const { return Root; }

  /// T1, Tinf and the serial space of the program (see the file header).
  Measures measures() const {
    std::map<const Proc *, Measures> Memo;
    return measure(Root, Memo);
  }

private:
  static Measures measure(const Proc *P, std::map<const Proc *, Measures> &Memo) {
    if (auto It = Memo.find(P); It != Memo.end())
      return It->second;
    Measures M;
    std::int64_t Now = 0;     // span of the continuation so far
    std::int64_t Pending = 0; // when the last outstanding child returns
    for (const Action &A : P->actions) {
      switch (A.op) {
      case Op::Work:
        M.work += A.units;
        Now += A.units;
        break;
      case Op::Spawn:
      case Op::Call: {
        Measures C = measure(A.callee, Memo);
        M.work += 1 + C.work;
        Now += 1;
        if (A.op == Op::Spawn) {
          Pending = std::max(Pending, Now + C.span);
          M.deque = std::max(M.deque, 1 + C.deque);
        } else {
          Now += C.span;
          M.deque = std::max(M.deque, C.deque);
        }
        M.frames = std::max(M.frames, C.frames);
        break;
      }
      case Op::Sync:
        M.work += 1;
        Now = std::max(Now, Pending) + 1;
        Pending = 0;
        break;
      }
    }
    M.work += 1; // the return, with its implicit sync
    M.span = std::max(Now, Pending) + 1;
    M.frames += 1;
    Memo[P] = M;
    return M;
  }

  std::vector<std::unique_ptr<Proc>> Procs;
  const Proc *Root = nullptr;
};

inline Action work(std::int64_t Units) { return {Op::Work, Units, nullptr}; }
inline Action spawn(const Proc *P) { return {Op::Spawn, 1, P}; }
inline Action call(const Proc *P) { return {Op::Call, 1, P}; }
inline Action sync() { return {Op::Sync, 1, nullptr}; }

/// fib(n): x = spawn fib(n-1); y = fib(n-2); sync; one instruction before
/// and after.
inline Program fibProgram(int N) {
  Program Prog;
  std::vector<Proc *> Fib;
  for (int K = 0; K <= N; ++K) {
    Proc *P = Prog.add();
    if (K < 2)
      P->actions = {work(1)};
    else
      P->actions = {work(1), spawn(Fib[K - 1]), call(Fib[K - 2]), sync(),
                    work(1)};
    Fib.push_back(P);
  }
  Prog.set_root(Fib[N]);
  return Prog;
}

/// for (i < n) spawn leaf(); sync; where each leaf works \p LeafUnits.
inline Program flatLoopProgram(int N, std::int64_t LeafUnits) {
  Program Prog;
  Proc *Leaf = Prog.add();
  Leaf->actions = {work(LeafUnits)};
  Proc *Loop = Prog.add();
  for (int I = 0; I < N; ++I)
    Loop->actions.push_back(spawn(Leaf));
  Loop->actions.push_back(sync());
  Prog.set_root(Loop);
  return Prog;
}

/// A binomial tree in the manner of UTS: the root spawns \p RootChildren
/// children; every other node works 1 to 8 units and, with probability
/// \p Q, spawns \p M children (else none), then syncs. With Q*M just under
/// 1 the subtrees' sizes are heavy-tailed: most are tiny, a few deep.
/// Nodes past \p Budget are leaves.
inline Program unbalancedTreeProgram(std::uint64_t Seed, int RootChildren,
                                     int M, double Q, int Budget) {
  Program Prog;
  std::mt19937_64 Random(Seed);
  std::bernoulli_distribution HasChildren(Q);
  Proc *Root = Prog.add();
  std::vector<Proc *> Open; // nodes whose children are still to be made
  for (int I = 0; I < RootChildren; ++I) {
    Proc *Child = Prog.add();
    Root->actions.push_back(spawn(Child));
    Open.push_back(Child);
  }
  Root->actions.push_back(sync());
  int Nodes = RootChildren;
  while (!Open.empty()) {
    Proc *Node = Open.back();
    Open.pop_back();
    Node->actions.push_back(work(1 + std::int64_t(Random() % 8)));
    if (Nodes + M > Budget || !HasChildren(Random))
      continue;
    for (int I = 0; I < M; ++I) {
      Proc *Child = Prog.add();
      Node->actions.push_back(spawn(Child));
      Open.push_back(Child);
    }
    Node->actions.push_back(sync());
    Nodes += M;
  }
  Prog.set_root(Root);
  return Prog;
}

/// A random series-parallel program of nesting depth up to \p Depth: each
/// procedure (but the top one) is a leaf of work with probability 1/5, else 2
/// to 4 segments, each work (1/4), a call of a smaller procedure (1/4), or
/// a parallel block (1/2: 2 or 3 smaller procedures spawned, the last
/// sometimes called instead, then a sync).
inline const Proc *randomSeriesParallel(Program &Prog, std::mt19937_64 &Random,
                                        int Depth, bool Top = false) {
  Proc *P = Prog.add();
  if (Depth == 0 || (!Top && Random() % 5 == 0)) {
    P->actions = {work(1 + std::int64_t(Random() % 20))};
    return P;
  }
  int Segments = 2 + int(Random() % 3);
  for (int S = 0; S < Segments; ++S) {
    switch (Random() % 4) {
    case 0:
      P->actions.push_back(work(1 + std::int64_t(Random() % 10)));
      break;
    case 1:
      P->actions.push_back(call(randomSeriesParallel(Prog, Random, Depth - 1)));
      break;
    default: {
      int Branches = 2 + int(Random() % 2);
      bool LastCalled = Random() % 2;
      for (int B = 0; B < Branches; ++B) {
        const Proc *Child = randomSeriesParallel(Prog, Random, Depth - 1);
        P->actions.push_back(B + 1 == Branches && LastCalled ? call(Child)
                                                             : spawn(Child));
      }
      P->actions.push_back(sync());
    }
    }
  }
  return P;
}

/// Four random series-parallel programs of depth \p Depth, spawned.
inline Program seriesParallelProgram(std::uint64_t Seed, int Depth) {
  Program Prog;
  std::mt19937_64 Random(Seed);
  Proc *Root = Prog.add();
  for (int B = 0; B < 4; ++B)
    Root->actions.push_back(
        spawn(randomSeriesParallel(Prog, Random, Depth, /*Top=*/true)));
  Root->actions.push_back(sync());
  Prog.set_root(Root);
  return Prog;
}

} // namespace sim

#endif // WEFT_TEST_SIM_PROGRAM_H
