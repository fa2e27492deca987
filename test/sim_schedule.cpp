//===- sim_schedule.cpp - A discrete-time model of Weft's work stealing ---===//
//
// The model is described in sim_schedule.h. Deque elements are Entries: a
// continuation offered by a spawn (work-first) or a child not yet started
// (help-first). An entry dies when its frame is taken by any route; a dead
// entry still in a deque is skipped by whoever finds it, at the cost of
// the step. Only stealing from the bottom leaves such entries: a child
// returns to its parent while the parent's continuation sits in the
// middle of some deque, under newer continuations stolen before it, and
// takes it from there.
//
//===----------------------------------------------------------------------===//

#include "sim_schedule.h"

#include "deque.h"

#include <deque>
#include <random>
#include <vector>

namespace sim {
namespace {

struct Entry;

/// One activation of a procedure.
struct Frame {
  const Proc *proc = nullptr;
  std::size_t pc = 0;       // next action; actions.size() is the return
  std::int64_t left = 0;    // units left of the current Work action, 0: none
  Frame *parent = nullptr;
  bool spawned = false;
  // Work-first, a spawned frame: the entry that offered its parent's
  // continuation when it was spawned. Dead on its return: a thief took it.
  Entry *parent_offer = nullptr;
  std::int64_t outstanding = 0; // children running while it ran elsewhere
  bool waiting = false;         // idle at a sync until outstanding is 0
};

struct Entry {
  Frame *frame;
  bool live;
  bool child; // help-first: a child to start, not a continuation
};

struct Worker {
  // Fenced: the simulator models the schedule, in which a steal either
  // takes the top or finds the deque empty, never the fences' handshake.
  weft::Deque<Entry *> deque{weft::FencePolicy::Fenced};
  weft::Thief thief;
  std::int64_t size = 0; // elements on the deque, dead ones included
  Frame *current = nullptr;
};

class Simulator {
public:
  Simulator(const Program &Prog, int P, std::uint64_t Seed, Policy How)
      : Workers(P), Random(Seed), How(How) {
    Workers[0].current = newFrame(Prog.root(), nullptr, false);
  }

  RunStats run() {
    while (!Done) {
      ++Result.steps;
      for (std::size_t W = 0; W < Workers.size(); ++W) {
        if (Done) {
          Result.idle_at_end += std::int64_t(Workers.size() - W);
          break;
        }
        act(W);
      }
    }
    for (Worker &W : Workers)
      Result.deque_peak = std::max(Result.deque_peak, W.deque.peak_size());
    return Result;
  }

private:
  void act(std::size_t W) {
    if (Frame *F = Workers[W].current)
      execute(W, F);
    else
      findWork(W);
  }

  // --- Instructions --------------------------------------------------------

  void execute(std::size_t W, Frame *F) {
    const std::vector<Action> &Actions = F->proc->actions;
    if (F->pc == Actions.size()) { // the implicit sync, then the return
      if (F->outstanding > 0)
        return waitAtSync(W, F);
      ++Result.instructions;
      return finish(W, F);
    }
    const Action &A = Actions[F->pc];
    switch (A.op) {
    case Op::Work:
      if (F->left == 0)
        F->left = A.units;
      if (--F->left == 0)
        ++F->pc;
      break;
    case Op::Spawn:
      ++F->pc;
      spawnChild(W, F, A.callee);
      break;
    case Op::Call:
      ++F->pc;
      Workers[W].current = newFrame(A.callee, F, false);
      break;
    case Op::Sync:
      if (F->outstanding > 0)
        return waitAtSync(W, F);
      ++F->pc;
      break;
    }
    ++Result.instructions;
  }

  void spawnChild(std::size_t W, Frame *Parent, const Proc *Callee) {
    Frame *Child = newFrame(Callee, Parent, true);
    if (How == Policy::HelpFirst) {
      ++Parent->outstanding;
      push(W, Child, /*IsChild=*/true);
      return;
    }
    Child->parent_offer = push(W, Parent, /*IsChild=*/false);
    Workers[W].current = Child;
  }

  /// The frame's sync (or return) found children out: the worker idles,
  /// and the frame's last child resumes it at the same instruction.
  void waitAtSync(std::size_t W, Frame *F) {
    ++Result.failed_syncs;
    F->waiting = true;
    Workers[W].current = nullptr;
  }

  /// The return instruction of \p F.
  void finish(std::size_t W, Frame *F) {
    --LiveFrames;
    Frame *Parent = F->parent;
    if (!Parent) {
      Done = true;
      Workers[W].current = nullptr;
      return;
    }
    if (!F->spawned) { // back into the caller, on this worker
      Workers[W].current = Parent;
      return;
    }
    if (How == Policy::HelpFirst || !F->parent_offer->live)
      return childDone(W, Parent); // its continuation ran elsewhere
    takeBackContinuation(W, Parent, F->parent_offer);
  }

  /// Work-first: the parent's continuation is still offered; take it back.
  /// It is the newest element of this worker's deque, unless a wrong
  /// policy took elements from the middle of the stack.
  void takeBackContinuation(std::size_t W, Frame *Parent, Entry *Offer) {
    Entry *Bottom = pop(W);
    if (Bottom != Offer) {
      ++Result.anomalies;
      if (Bottom)
        push(W, Bottom);
    }
    Offer->live = false; // if not popped, a dead entry now
    Workers[W].current = Parent;
  }

  /// A child of \p Parent returned while the parent's continuation ran
  /// elsewhere (work-first), or as a task (help-first).
  void childDone(std::size_t W, Frame *Parent) {
    if (How != Policy::HelpFirst && Workers[W].size != 0)
      ++Result.anomalies; // work-first: the deque empties before this
    Workers[W].current = nullptr;
    if (--Parent->outstanding == 0 && Parent->waiting) {
      Parent->waiting = false;
      Workers[W].current = Parent; // its sync runs in the next step
    }
  }

  // --- Idle workers --------------------------------------------------------

  void findWork(std::size_t W) {
    if (How == Policy::HelpFirst && Workers[W].size > 0) { // its own children
      ++Result.local_takes;
      if (Entry *E = pop(W))
        take(W, E);
      return;
    }
    ++Result.attempts;
    std::size_t Victim = chooseVictim(W);
    Entry *E = nullptr;
    if (How == Policy::StealFromBottom) {
      E = pop(Victim);
    } else if (Workers[Victim].deque.steal(E, Workers[W].thief) ==
                   weft::StealResult::Success) {
      --Workers[Victim].size;
    } else {
      E = nullptr;
    }
    if (E && E->live) {
      ++Result.steals;
      take(W, E);
    }
  }

  std::size_t chooseVictim(std::size_t W) {
    if (How == Policy::FixedVictim)
      return W == 0 ? 1 : 0;
    std::size_t V = Random() % (Workers.size() - 1);
    return V >= W ? V + 1 : V;
  }

  /// Runs the frame \p E offers. A continuation taken this way has its
  /// spawned child running elsewhere, which its sync must wait for.
  void take(std::size_t W, Entry *E) {
    if (!E->live)
      return;
    E->live = false;
    Frame *F = E->frame;
    if (!E->child)
      ++F->outstanding;
    Workers[W].current = F;
  }

  // --- Deques and frames ---------------------------------------------------

  Entry *push(std::size_t W, Frame *F, bool IsChild) {
    Entries.push_back(Entry{F, true, IsChild});
    push(W, &Entries.back());
    return &Entries.back();
  }

  void push(std::size_t W, Entry *E) {
    Worker &Owner = Workers[W];
    Owner.deque.push(E);
    Result.max_deque = std::max(Result.max_deque, ++Owner.size);
  }

  Entry *pop(std::size_t W) {
    Entry *E = Workers[W].deque.pop();
    if (E)
      --Workers[W].size;
    return E;
  }

  Frame *newFrame(const Proc *P, Frame *Parent, bool Spawned) {
    Frames.emplace_back();
    Frame *F = &Frames.back();
    F->proc = P;
    F->parent = Parent;
    F->spawned = Spawned;
    Result.max_frames = std::max(Result.max_frames, ++LiveFrames);
    return F;
  }

  std::vector<Worker> Workers;
  std::mt19937_64 Random;
  Policy How;
  // std::deque never moves its elements, so pointers to them stay valid.
  std::deque<Frame> Frames;
  std::deque<Entry> Entries;
  std::int64_t LiveFrames = 0;
  bool Done = false;
  RunStats Result;
};

} // namespace

RunStats simulate(const Program &Prog, int Workers, std::uint64_t Seed, Policy How) {
  return Simulator(Prog, Workers, Seed, How).run();
}

} // namespace sim
