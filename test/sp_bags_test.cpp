// Unit tests of the race detector's series-parallel bookkeeping
// (analysis/sp_bags.h). Hand-written computations check the answers one
// knows by reading them; random series-parallel programs check every
// answer against the explicit DAG of strands, built beside the bags while
// the program runs serially, by brute-force reachability. The access
// histories are checked the same two ways.
#include "analysis/sp_bags.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

using weft::race::AccessHistory;
using weft::race::kNoProcedure;
using weft::race::ProcedureId;
using weft::race::RaceCheck;
using weft::race::SpBags;

//===----------------------------------------------------------------------===//
// Hand-written computations
//===----------------------------------------------------------------------===//

/// A spawned child against the parent's continuation, then after the sync.
TEST(SpBags, ChildIsParallelWithContinuationUntilSync) {
  SpBags Bags;
  ProcedureId Main = Bags.current();
  EXPECT_EQ(Main, 0u);
  EXPECT_TRUE(Bags.precedes(Main));

  Bags.enterSpawned();

  ProcedureId Child = Bags.current();
  EXPECT_EQ(Bags.current(), Child);
  EXPECT_TRUE(Bags.precedes(Main)) << "the parent's start precedes its child";
  Bags.leave();

  EXPECT_EQ(Bags.current(), Main);
  EXPECT_TRUE(Bags.parallel(Child)) << "the continuation runs beside it";
  EXPECT_TRUE(Bags.precedes(Main));
  Bags.sync();
  EXPECT_TRUE(Bags.precedes(Child)) << "the sync waits for it";
  EXPECT_EQ(Bags.procedures(), 2u);
  EXPECT_EQ(Bags.depth(), 1u);
}

/// A procedure gets its node when its id is first asked for: one that
/// never asks takes none, and one that asks only after its children
/// returned relates to them as if it had had its node from its entry.
TEST(SpBags, NodesAreMadeWhenAskedFor) {
  SpBags Bags;
  for (int I = 0; I < 100; ++I) {
    Bags.enterSpawned();
    Bags.enterCalled();
    Bags.leave();
    Bags.leave();
  }
  Bags.sync();
  EXPECT_EQ(Bags.procedures(), 1u) << "only the outermost procedure";

  Bags.enterCalled(); // F, which asks for its id late
  Bags.enterSpawned();
  ProcedureId Spawned = Bags.current();
  Bags.leave();
  Bags.enterCalled();
  ProcedureId Called = Bags.current();
  Bags.leave();
  ProcedureId F = Bags.current();
  EXPECT_EQ(Bags.procedures(), 4u);
  EXPECT_TRUE(Bags.parallel(Spawned)) << "not synced yet";
  EXPECT_TRUE(Bags.precedes(Called));
  EXPECT_TRUE(Bags.precedes(F));
  Bags.enterSpawned(); // a child of F: F's start precedes it
  EXPECT_TRUE(Bags.precedes(F));
  EXPECT_TRUE(Bags.parallel(Spawned));
  Bags.leave();
  Bags.leave(); // F's implicit sync, then F returns to the outermost
  EXPECT_TRUE(Bags.precedes(Spawned));
  EXPECT_TRUE(Bags.precedes(F));
}

TEST(SpBags, TwoChildrenAreParallel) {
  SpBags Bags;
  Bags.enterSpawned();
  ProcedureId First = Bags.current();
  Bags.leave();
  Bags.enterSpawned();
  ProcedureId Second = Bags.current();
  EXPECT_TRUE(Bags.parallel(First));
  Bags.leave();
  EXPECT_TRUE(Bags.parallel(First));
  EXPECT_TRUE(Bags.parallel(Second));
  Bags.sync();
  EXPECT_TRUE(Bags.precedes(First));
  EXPECT_TRUE(Bags.precedes(Second));
  // After the sync, a new child sees both as its past.
  Bags.enterSpawned();
  EXPECT_TRUE(Bags.precedes(First));
  EXPECT_TRUE(Bags.precedes(Second));
}

/// main spawns Uncle, then spawns Parent, which spawns Grandchild.
TEST(SpBags, NestedGrandchildAgainstUncle) {
  SpBags Bags;
  Bags.enterSpawned();
  ProcedureId Uncle = Bags.current();
  Bags.leave();
  Bags.enterSpawned();
  ProcedureId Parent = Bags.current();
  Bags.enterSpawned();
  ProcedureId Grandchild = Bags.current();
  EXPECT_TRUE(Bags.parallel(Uncle));
  EXPECT_TRUE(Bags.precedes(Parent));
  Bags.leave();

  // Back in Parent: its child is outstanding, its uncle still parallel.
  EXPECT_TRUE(Bags.parallel(Grandchild));
  EXPECT_TRUE(Bags.parallel(Uncle));
  Bags.sync();
  EXPECT_TRUE(Bags.precedes(Grandchild));
  EXPECT_TRUE(Bags.parallel(Uncle)) << "Parent's sync is not main's";
  Bags.leave();

  // Back in main: the whole Parent subtree runs beside the continuation.
  EXPECT_TRUE(Bags.parallel(Grandchild));
  EXPECT_TRUE(Bags.parallel(Parent));
  Bags.enterSpawned();
  ProcedureId Late = Bags.current();
  EXPECT_TRUE(Bags.parallel(Grandchild)) << "a later uncle of it, too";
  Bags.leave();
  Bags.sync();
  for (ProcedureId Id : {Uncle, Parent, Grandchild, Late})
    EXPECT_TRUE(Bags.precedes(Id)) << Id;
}

/// A grandchild spawned after the uncle returned: in the grandchild, the
/// uncle is parallel, since main has not synced.
TEST(SpBags, UncleIsParallelWithLaterGrandchild) {
  SpBags Bags;
  Bags.enterSpawned();
  ProcedureId Uncle = Bags.current();
  Bags.leave();
  Bags.enterSpawned();
  Bags.enterSpawned();
  EXPECT_TRUE(Bags.parallel(Uncle));
  Bags.enterCalled();
  EXPECT_TRUE(Bags.parallel(Uncle)) << "a call does not sync main";
}

/// A cilk_scope is a called procedure: its end waits for the children
/// spawned inside it, not for those spawned before it.
TEST(SpBags, ScopeSyncsItsChildrenOnly) {
  SpBags Bags;
  Bags.enterSpawned();
  ProcedureId Before = Bags.current();
  Bags.leave();

  Bags.enterCalled();

  ProcedureId Scope = Bags.current();
  EXPECT_TRUE(Bags.parallel(Before));
  Bags.enterSpawned();
  ProcedureId Inside = Bags.current();
  EXPECT_TRUE(Bags.precedes(Scope));
  Bags.leave();
  EXPECT_TRUE(Bags.parallel(Inside));
  EXPECT_TRUE(Bags.parallel(Before));
  Bags.leave(); // the scope's end

  EXPECT_TRUE(Bags.precedes(Inside));
  EXPECT_TRUE(Bags.precedes(Scope));
  EXPECT_TRUE(Bags.parallel(Before));
  Bags.sync();
  EXPECT_TRUE(Bags.precedes(Before));
}

/// A call returns serially (after its implicit sync); a spawn does not.
TEST(SpBags, CallIsSerialSpawnIsNot) {
  SpBags Bags;
  Bags.enterCalled();
  ProcedureId Called = Bags.current();
  Bags.enterSpawned();
  ProcedureId ItsChild = Bags.current();
  Bags.leave();
  EXPECT_TRUE(Bags.parallel(ItsChild));
  Bags.leave();
  EXPECT_TRUE(Bags.precedes(Called));
  EXPECT_TRUE(Bags.precedes(ItsChild)) << "the callee synced before returning";

  Bags.enterSpawned();

  ProcedureId Spawned = Bags.current();
  Bags.enterCalled();
  ProcedureId ItsCallee = Bags.current();
  Bags.leave();
  EXPECT_TRUE(Bags.precedes(ItsCallee));
  Bags.leave();
  EXPECT_TRUE(Bags.parallel(Spawned));
  EXPECT_TRUE(Bags.parallel(ItsCallee));
  EXPECT_TRUE(Bags.precedes(Called));
}

/// A callee runs beside the caller's outstanding children.
TEST(SpBags, CalleeIsParallelWithCallersOutstandingChildren) {
  SpBags Bags;
  Bags.enterSpawned();
  ProcedureId Child = Bags.current();
  Bags.leave();
  Bags.enterCalled();
  ProcedureId Callee = Bags.current();
  EXPECT_TRUE(Bags.parallel(Child));
  Bags.sync(); // the callee's own sync
  EXPECT_TRUE(Bags.parallel(Child));
  Bags.leave();
  EXPECT_TRUE(Bags.precedes(Callee));
  EXPECT_TRUE(Bags.parallel(Child));
}

/// A cilk_for: a called loop procedure whose iterations are spawned.
TEST(SpBags, CilkForIterationsAreParallel) {
  SpBags Bags;
  Bags.enterCalled();
  std::vector<ProcedureId> Iterations;
  for (int I = 0; I < 4; ++I) {
    Bags.enterSpawned();
    Iterations.push_back(Bags.current());
    for (ProcedureId Earlier : Iterations)
      EXPECT_EQ(Bags.precedes(Earlier), Earlier == Bags.current());
    Bags.leave();
  }
  Bags.leave();
  for (ProcedureId Iteration : Iterations)
    EXPECT_TRUE(Bags.precedes(Iteration));
}

//===----------------------------------------------------------------------===//
// Access histories, by hand
//===----------------------------------------------------------------------===//

TEST(SpBagsAccess, WriteWriteRace) {
  SpBags Bags;
  AccessHistory Cell;
  EXPECT_EQ(Cell.Writer, kNoProcedure);
  EXPECT_EQ(Cell.Reader, kNoProcedure);
  Bags.enterSpawned();
  ProcedureId Child = Bags.current();
  EXPECT_FALSE(Cell.onWrite(Bags));
  Bags.leave();
  RaceCheck Found = Cell.onWrite(Bags);
  EXPECT_EQ(Found.Kind, RaceCheck::With::EarlierWrite);
  EXPECT_EQ(Found.Earlier, Child);
  EXPECT_EQ(Cell.Writer, Bags.current());
}

TEST(SpBagsAccess, ReadWriteRace) {
  SpBags Bags;
  AccessHistory Cell;
  Bags.enterSpawned();
  ProcedureId Child = Bags.current();
  EXPECT_FALSE(Cell.onRead(Bags));
  Bags.leave();
  RaceCheck Found = Cell.onWrite(Bags);
  EXPECT_EQ(Found.Kind, RaceCheck::With::EarlierRead);
  EXPECT_EQ(Found.Earlier, Child);
}

TEST(SpBagsAccess, WriteReadRace) {
  SpBags Bags;
  AccessHistory Cell;
  Bags.enterSpawned();
  ProcedureId Child = Bags.current();
  EXPECT_FALSE(Cell.onWrite(Bags));
  Bags.leave();
  RaceCheck Found = Cell.onRead(Bags);
  EXPECT_EQ(Found.Kind, RaceCheck::With::EarlierWrite);
  EXPECT_EQ(Found.Earlier, Child);
}

TEST(SpBagsAccess, ParallelReadsDoNotRace) {
  SpBags Bags;
  AccessHistory Cell;
  Bags.enterSpawned();
  EXPECT_FALSE(Cell.onRead(Bags));
  Bags.leave();
  EXPECT_FALSE(Cell.onRead(Bags));
}

TEST(SpBagsAccess, NoRaceAfterSync) {
  SpBags Bags;
  AccessHistory Written, Read;
  Bags.enterSpawned();
  EXPECT_FALSE(Written.onWrite(Bags));
  EXPECT_FALSE(Read.onRead(Bags));
  Bags.leave();
  Bags.sync();
  EXPECT_FALSE(Written.onRead(Bags));
  EXPECT_FALSE(Written.onWrite(Bags));
  EXPECT_FALSE(Read.onWrite(Bags));
}

/// A read replaces the kept reader only when the reader precedes it: a
/// parallel reader stays, so that a later write can still race with it.
TEST(SpBagsAccess, ReaderReplacement) {
  SpBags Bags;
  AccessHistory Cell;
  ProcedureId Main = Bags.current();
  EXPECT_FALSE(Cell.onRead(Bags));
  EXPECT_EQ(Cell.Reader, Main);

  Bags.enterSpawned();

  ProcedureId Child = Bags.current();
  EXPECT_FALSE(Cell.onRead(Bags));
  EXPECT_EQ(Cell.Reader, Child) << "main's read precedes the child's";
  Bags.leave();

  EXPECT_FALSE(Cell.onRead(Bags));
  EXPECT_EQ(Cell.Reader, Child) << "the child's read is parallel: kept";
  RaceCheck Found = Cell.onWrite(Bags);
  EXPECT_EQ(Found.Kind, RaceCheck::With::EarlierRead);
  EXPECT_EQ(Found.Earlier, Child);

  Bags.sync();
  EXPECT_FALSE(Cell.onRead(Bags));
  EXPECT_EQ(Cell.Reader, Main) << "after the sync the child's read precedes";
}

/// With a parallel writer and a parallel reader, the write is reported.
TEST(SpBagsAccess, WriteRaceIsReportedFirst) {
  SpBags Bags;
  AccessHistory Cell;
  Bags.enterSpawned();
  ProcedureId Writer = Bags.current();
  Cell.onWrite(Bags);
  Bags.leave();
  Bags.enterSpawned();
  EXPECT_TRUE(Cell.onRead(Bags));
  Bags.leave();
  RaceCheck Found = Cell.onWrite(Bags);
  EXPECT_EQ(Found.Kind, RaceCheck::With::EarlierWrite);
  EXPECT_EQ(Found.Earlier, Writer);
}

//===----------------------------------------------------------------------===//
// Random series-parallel programs against their explicit DAG
//===----------------------------------------------------------------------===//

/// splitmix64: the same numbers on every platform and standard library.
class Random {
public:
  explicit Random(std::uint64_t Seed) : State(Seed) {}
  std::uint64_t next() {
    std::uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
    return Z ^ (Z >> 31);
  }
  /// A number in [Low, High].
  int between(int Low, int High) {
    return Low + static_cast<int>(next() % std::uint64_t(High - Low + 1));
  }
  bool percent(int Chance) { return between(0, 99) < Chance; }

private:
  std::uint64_t State;
};

/// The series-parallel DAG of strands: an edge for each spawn (parent's
/// strand to the child's first), continuation, call and return, and sync
/// (each joined child's last strand to the strand after the sync).
class StrandDag {
public:
  std::uint32_t add(ProcedureId Owner) {
    Owners.push_back(Owner);
    Predecessors.emplace_back();
    return static_cast<std::uint32_t>(Owners.size() - 1);
  }
  void edge(std::uint32_t From, std::uint32_t To) {
    Predecessors[To].push_back(From);
  }
  std::size_t size() const { return Owners.size(); }
  ProcedureId owner(std::uint32_t Strand) const { return Owners[Strand]; }

  /// Marks every strand that reaches Strand, Strand included: a depth-first
  /// walk of the edges backwards.
  void markReaching(std::uint32_t Strand, std::vector<char> &Marks) const {
    Marks.assign(size(), 0);
    std::vector<std::uint32_t> Work{Strand};
    Marks[Strand] = 1;
    while (!Work.empty()) {
      std::uint32_t Node = Work.back();
      Work.pop_back();
      for (std::uint32_t Before : Predecessors[Node])
        if (!Marks[Before]) {
          Marks[Before] = 1;
          Work.push_back(Before);
        }
    }
  }

private:
  std::vector<ProcedureId> Owners;
  std::vector<std::vector<std::uint32_t>> Predecessors;
};

/// Runs a program's events serially into both the bags and the DAG. A
/// strand's owner in the DAG is its procedure's record here, whose id the
/// bags give at the procedure's entry, or, when Lazy, only when one of its
/// strands is checked (touch()), as the detector asks for it: a procedure
/// never checked has no id, and nothing is compared with it.
class SerialRun {
public:
  explicit SerialRun(bool Lazy) : Lazy(Lazy) {
    Stack.push_back(Procedure{Dag.add(newRecord()), {}, false, 0});
    Ids[0] = Bags.current();
  }

  void spawn() { enter(/*Spawned=*/true); }
  void call() { enter(/*Spawned=*/false); }

  void sync() {
    Bags.sync();
    joinChildren();
  }

  /// Returns, after an implicit sync that only the DAG is told of: the
  /// bags must sync by themselves.
  void leave() {
    joinChildren();
    Procedure Child = std::move(Stack.back());
    Stack.pop_back();
    Bags.leave();
    Procedure &Parent = Stack.back();
    std::uint32_t After = Dag.add(Parent.Record);
    Dag.edge(Parent.Strand, After);
    if (Child.Spawned)
      Parent.Unjoined.push_back(Child.Strand);
    else
      Dag.edge(Child.Strand, After);
    Parent.Strand = After;
  }

  /// The current procedure's id, asked of the bags if not yet.
  ProcedureId touch() {
    ProcedureId &Id = Ids[Stack.back().Record];
    if (Id == kNoProcedure)
      Id = Bags.current();
    return Id;
  }
  /// The id of the procedure that ran Strand, kNoProcedure if never asked.
  ProcedureId ownerOf(std::uint32_t Strand) const {
    return Ids[Dag.owner(Strand)];
  }

  std::size_t depth() const { return Stack.size(); }
  std::size_t deepest() const { return Deepest; }
  std::uint32_t strand() const { return Stack.back().Strand; }

  SpBags Bags;
  StrandDag Dag;

private:
  struct Procedure {
    std::uint32_t Strand;                // the one running now
    std::vector<std::uint32_t> Unjoined; // spawned children's last strands
    bool Spawned;
    std::uint32_t Record; // its index in Ids
  };

  std::uint32_t newRecord() {
    Ids.push_back(kNoProcedure);
    return static_cast<std::uint32_t>(Ids.size() - 1);
  }

  /// A new strand after the current one and the last strands of the
  /// children spawned since the last sync.
  void joinChildren() {
    Procedure &Current = Stack.back();
    std::uint32_t After = Dag.add(Current.Record);
    Dag.edge(Current.Strand, After);
    for (std::uint32_t Joined : Current.Unjoined)
      Dag.edge(Joined, After);
    Current.Unjoined.clear();
    Current.Strand = After;
  }

  void enter(bool Spawned) {
    std::uint32_t Before = Stack.back().Strand;
    if (Spawned)
      Bags.enterSpawned();
    else
      Bags.enterCalled();
    std::uint32_t Record = newRecord();
    std::uint32_t First = Dag.add(Record);
    Dag.edge(Before, First);
    Stack.push_back(Procedure{First, {}, Spawned, Record});
    if (!Lazy)
      touch();
    Deepest = std::max(Deepest, Stack.size());
  }

  bool Lazy;
  std::vector<ProcedureId> Ids; // by record
  std::vector<Procedure> Stack;
  std::size_t Deepest = 1;
};

/// How a random program looks: nesting, length of bodies, how often a
/// point is checked, how many locations its accesses share.
struct Shape {
  int MaxDepth;
  int MaxSteps;
  int CheckPercent;
  int Locations;
  std::size_t MaxStrands;
};

/// One earlier access to a location, for the brute-force check.
struct Access {
  std::uint32_t Strand;
  bool Write;
};

/// Runs one random program, checking the bags at random points against the
/// DAG, and the access histories against all earlier accesses.
class RandomProgram {
public:
  RandomProgram(std::uint64_t Seed, Shape S, bool Lazy)
      : Rng(Seed), Form(S), Run(Lazy), Cells(S.Locations),
        History(S.Locations), RaceSeen(S.Locations, false) {}

  void run() {
    body(1);
    Run.sync();
    check();
  }

  int Checks = 0;
  long Comparisons = 0;
  int Accesses = 0;
  int Races = 0;
  bool Failed = false;
  std::size_t strands() const { return Run.Dag.size(); }
  std::size_t deepest() const { return Run.deepest(); }

private:
  void body(int Depth) {
    int Steps = Rng.between(Form.MaxSteps / 2, Form.MaxSteps);
    for (int Step = 0; Step < Steps && !Failed; ++Step) {
      bool CanNest = Depth < Form.MaxDepth &&
                     Run.Dag.size() < Form.MaxStrands;
      int Pick = Rng.between(0, 99);
      if (Pick < 25 && CanNest) {
        Run.spawn();
        body(Depth + 1);
        Run.leave();
      } else if (Pick < 33 && CanNest) {
        Run.call(); // a call, or a cilk_scope: the same to the bags
        body(Depth + 1);
        Run.leave();
      } else if (Pick < 38 && CanNest) {
        loop(Depth);
      } else if (Pick < 50) {
        Run.sync();
      } else if (Pick < 54) {
        return; // an early return
      } else if (Rng.percent(Form.CheckPercent)) {
        check();
      }
    }
  }

  void loop(int Depth) {
    Run.call();
    int Iterations = Rng.between(1, 4);
    for (int I = 0; I < Iterations; ++I) {
      Run.spawn();
      body(Depth + 2);
      Run.leave();
    }
    Run.leave();
  }

  /// Every strand so far against the current one, then one access.
  void check() {
    ++Checks;
    std::uint32_t Now = Run.strand();
    ProcedureId Me = Run.touch();
    Run.Dag.markReaching(Now, Reaching);
    for (std::uint32_t Strand = 0; Strand < Run.Dag.size(); ++Strand) {
      ProcedureId Owner = Run.ownerOf(Strand);
      if (Owner == kNoProcedure)
        continue; // never checked: no shadow cell can name it
      ++Comparisons;
      bool Serial = Reaching[Strand] != 0;
      if (Run.Bags.precedes(Owner) != Serial) {
        ADD_FAILURE() << "strand " << Strand << " of procedure "
                      << Owner << " against strand " << Now
                      << " of procedure " << Me
                      << ": the DAG says " << (Serial ? "serial" : "parallel");
        Failed = true;
        return;
      }
    }
    access(Now);
  }

  void access(std::uint32_t Now) {
    ++Accesses;
    int Location = Rng.between(0, Form.Locations - 1);
    bool Write = Rng.percent(40);
    bool Racing = false, RacesWriter = false, RacesReader = false;
    for (const Access &Earlier : History[Location]) {
      if (Reaching[Earlier.Strand] || !(Earlier.Write || Write))
        continue;
      Racing = true;
      (Earlier.Write ? RacesWriter : RacesReader) = true;
    }
    RaceCheck Found = Write ? Cells[Location].onWrite(Run.Bags)
                            : Cells[Location].onRead(Run.Bags);
    History[Location].push_back(Access{Now, Write});
    Races += Found ? 1 : 0;

    // A report names a real race; the first race on a location is reported.
    if (Found && !(Found.Kind == RaceCheck::With::EarlierWrite ? RacesWriter
                                                               : RacesReader))
      fail("a race that the DAG does not have", Location);
    if (Racing && !RaceSeen[Location] && !Found)
      fail("the location's first race went unreported", Location);
    RaceSeen[Location] = RaceSeen[Location] || Racing;
  }

  void fail(const char *What, int Location) {
    ADD_FAILURE() << What << ", location " << Location << ", access "
                  << Accesses;
    Failed = true;
  }

  Random Rng;
  Shape Form;
  SerialRun Run;
  std::vector<AccessHistory> Cells;
  std::vector<std::vector<Access>> History;
  std::vector<bool> RaceSeen;
  std::vector<char> Reaching;
};

TEST(SpBags, RandomProgramsAgreeWithTheirDag) {
  const Shape Shapes[] = {
      {2, 24, 30, 2, 300},   // flat: many siblings
      {4, 10, 10, 3, 800},   // mixed
      {8, 6, 6, 4, 1500},    // deep and narrow
      {20, 4, 5, 4, 1500},   // very deep chains
      {5, 14, 2, 16, 3000},  // wide and bushy, few checks
  };
  int Programs = 0, Checks = 0, Accesses = 0, Races = 0;
  long Comparisons = 0;
  std::size_t Strands = 0, Deepest = 0;
  for (std::uint64_t Seed = 1; Seed <= 200; ++Seed)
    for (const Shape &S : Shapes) {
      // Odd seeds give procedures their ids at entry, even ones only when
      // checked.
      RandomProgram Program(Seed * 1000003u, S, /*Lazy=*/Seed % 2 == 0);
      Program.run();
      ASSERT_FALSE(Program.Failed) << "seed " << Seed;
      ++Programs;
      Checks += Program.Checks;
      Comparisons += Program.Comparisons;
      Accesses += Program.Accesses;
      Races += Program.Races;
      Strands += Program.strands();
      Deepest = std::max(Deepest, Program.deepest());
    }
  std::printf("SpBags: %d random programs, %zu strands, nesting up to %zu, "
              "%d checked points, %ld strand pairs compared, %d accesses, "
              "%d races found\n",
              Programs, Strands, Deepest, Checks, Comparisons, Accesses, Races);
}

} // namespace
