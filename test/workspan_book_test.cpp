// Unit tests of the work/span analysis's arithmetic (analysis/
// workspan_book.h): the work, span and burdened span of hand-built hook
// sequences, timed by a clock the test advances by hand, so that every
// expected figure is exact; and the report's parallelism (printReport's
// CSV) for known rows.
#include "analysis/workspan.h"
#include "analysis/workspan_book.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using weft::workspan::Costs;
using weft::workspan::Row;
using weft::workspan::SpanBook;
using weft::workspan::Ticks;

/// A clock that moves only when told: NsPerTick nanoseconds per tick, and
/// a thread CPU time that the test sets apart from the readings.
struct FakeClock {
  Ticks Now = 1000;
  Ticks CpuNs = 0;
  std::int64_t NsPerTick = 1;
  bool CpuTime = false;

  Ticks now() const { return Now; }
  bool countsCpuTime() const { return CpuTime; }
  Ticks cpuTimeNs() const { return CpuNs; }
  std::int64_t nanoseconds(Ticks T) const {
    return static_cast<std::int64_t>(T) * NsPerTick;
  }
  Ticks ticks(std::int64_t Ns) const { return Ticks(Ns / NsPerTick); }
};

constexpr Ticks Burden = 1000;
/// Longer than any interval below: the CPU-time clock is never asked.
constexpr Ticks NoOffCpuCheck = Ticks(1) << 40;

/// The book under a fake clock, driven as workspan.cpp's hooks drive it:
/// each hook charges the time since the last one, acts, and restarts.
class Hooks {
public:
  explicit Hooks(Costs K = {Burden, NoOffCpuCheck, 0}) {
    Book.setCosts(K);
    Book.startAt(clock().now());
  }

  FakeClock &clock() { return Book.clock(); }
  /// A strand runs for \p T ticks, on its CPU throughout.
  void work(Ticks T) {
    clock().Now += T;
    clock().CpuNs += T * clock().NsPerTick;
  }

  std::uint32_t enter() {
    std::uint32_t Frame = 0;
    hook([&] { Frame = Book.enter(); });
    return Frame;
  }
  void spawn(std::uint32_t F) { hook([&] { Book.spawn(F); }); }
  void resume(std::uint32_t F) { hook([&] { Book.resume(F); }); }
  void sync(std::uint32_t F) { hook([&] { Book.sync(F); }); }
  void exit(std::uint32_t F) { hook([&] { Book.exit(F); }); }
  Row reading() {
    Row R;
    hook([&] { R = Book.reading(); });
    return R;
  }
  /// The program's end, as Analysis::finish() closes it.
  Row finish() {
    Book.charge(clock().now());
    Book.closeAll();
    return Book.reading();
  }

  /// Ticks each hook itself takes, which no strand may be charged.
  Ticks HookCost = 7;
  SpanBook<FakeClock> Book;

private:
  template <class Action> void hook(Action Act) {
    Ticks Begin = clock().now();
    Book.charge(Begin);
    Act();
    clock().Now += HookCost; // the hook's own time, unmeasured
    Book.restart(Begin);
  }
};

void expectRow(const Row &R, std::int64_t Work, std::int64_t Span,
               std::int64_t BurdenedSpan) {
  EXPECT_EQ(R.Work, Work);
  EXPECT_EQ(R.Span, Span);
  EXPECT_EQ(R.BurdenedSpan, BurdenedSpan);
}

// Calls are serial: every strand is on the one path.
TEST(WorkSpanBook, SerialChainHasSpanEqualToWork) {
  Hooks R;
  R.work(10);
  std::uint32_t F = R.enter();
  EXPECT_EQ(F, 1u);
  R.work(20);
  std::uint32_t G = R.enter();
  EXPECT_EQ(G, 2u);
  R.work(30);
  R.exit(G);
  R.work(40);
  R.exit(F);
  R.work(5);
  EXPECT_EQ(R.Book.depth(), 1u);
  expectRow(R.finish(), 105, 105, 105);
}

// f: 10, spawn a child of 100, a continuation of 30, sync, then 5.
TEST(WorkSpanBook, SpawnWithLongChild) {
  Hooks R;
  std::uint32_t F = R.enter();
  R.work(10);
  R.spawn(F);
  EXPECT_EQ(R.Book.depth(), 3u);
  R.work(100);
  R.resume(F);
  EXPECT_EQ(R.Book.depth(), 2u);
  R.work(30);
  // Before the sync the continuation's own path is the top's span; the
  // burden is on it already.
  expectRow(R.reading(), 140, 40, 40 + Burden);
  R.sync(F);
  expectRow(R.reading(), 140, 110, 110 + Burden);
  R.work(5);
  R.exit(F);
  expectRow(R.finish(), 145, 115, 115 + Burden);
}

// The continuation outlasts the child: it makes the span.
TEST(WorkSpanBook, SpawnWithLongContinuation) {
  Hooks R;
  std::uint32_t F = R.enter();
  R.work(3);
  R.spawn(F);
  R.work(10);
  R.resume(F);
  R.work(200);
  R.sync(F);
  R.exit(F);
  // Burdened: the child's path is 3 + 10 + B, the continuation's 3 + B +
  // 200.
  expectRow(R.finish(), 213, 203, 203 + Burden);
}

// Two spawns before one sync: the span takes the longest of the children
// and the continuation, and every spawn burdens the continuation.
TEST(WorkSpanBook, TwoChildrenOneSync) {
  Hooks R;
  std::uint32_t F = R.enter();
  R.spawn(F);
  R.work(50);
  R.resume(F);
  R.work(4);
  R.spawn(F);
  R.work(60);
  R.resume(F);
  R.work(6);
  R.sync(F);
  R.exit(F);
  // Paths: child 1 = 50 (+B), child 2 = 4 + 60 (+2B, after the first
  // spawn's burden), continuation = 10 (+2B).
  expectRow(R.finish(), 120, 64, 64 + 2 * Burden);
}

// Syncs in sequence: the span adds each phase's longest path.
TEST(WorkSpanBook, NestedPhasesAddUp) {
  Hooks R;
  std::uint32_t F = R.enter();
  R.work(1);
  R.spawn(F);
  R.work(50);
  R.resume(F);
  R.work(10);
  R.sync(F); // phase 1: max(50, 10)
  R.work(2);
  R.spawn(F);
  R.work(5);
  R.resume(F);
  R.work(20);
  R.sync(F); // phase 2: max(5, 20)
  R.work(3);
  R.exit(F);
  expectRow(R.finish(), 91, 1 + 50 + 2 + 20 + 3,
            1 + 50 + Burden + 2 + 20 + Burden + 3);
}

// A spawned child that itself spawns: its own sync joins its children
// before the parent's continue joins it.
TEST(WorkSpanBook, ChildSpawnsAndSyncs) {
  Hooks R;
  std::uint32_t F = R.enter();
  R.spawn(F);
  std::uint32_t G = R.enter(); // the spawned call
  R.spawn(G);
  R.work(70); // grandchild
  R.resume(G);
  R.work(10);
  R.sync(G);
  R.exit(G);
  R.resume(F);
  R.work(30);
  R.sync(F);
  R.exit(F);
  // The grandchild's path is 70 with two burdens (its own spawn, then the
  // child's); the continuation of f has one.
  expectRow(R.finish(), 110, 70, 70 + 2 * Burden);
}

/// fib(n) as the pass instruments it: A ticks on entry, then for n >= 2
/// spawn fib(n-1), C ticks of continuation, call fib(n-2), sync, B ticks.
void fib(Hooks &R, int N, Ticks A, Ticks B, Ticks C) {
  std::uint32_t F = R.enter();
  R.work(A);
  if (N >= 2) {
    R.spawn(F);
    fib(R, N - 1, A, B, C);
    R.resume(F);
    R.work(C);
    fib(R, N - 2, A, B, C);
    R.sync(F);
    R.work(B);
  }
  R.exit(F);
}

// One tick per strand: W(n) = W(n-1) + W(n-2) + 3, S(n) = S(n-1) + 2,
// from W = S = 1 at n < 2; each level adds one burden to the span.
TEST(WorkSpanBook, FibTreeOfUnitStrands) {
  Hooks R;
  fib(R, 5, 1, 1, 1);
  expectRow(R.finish(), 29, 10, 10 + 4 * Burden);
}

// With uneven strands the continuation's path (C + fib(n-2)) wins at some
// levels: S(n) = 2 + 3 + max(S(n-1), 40 + S(n-2)), W(n) = W(n-1) + W(n-2)
// + 45.
TEST(WorkSpanBook, FibTreeWithHeavyContinuations) {
  Hooks R;
  fib(R, 4, 2, 3, 40);
  // W: 2, 2, 49, 96, 190. S: 2, 2, 47, 52, 92. The burdened span
  // B(n) = 5 + Burden + max(B(n-1), 40 + B(n-2)): 2, 2, 47 + Burden,
  // 52 + 2 Burden, 57 + 3 Burden; the spawned path, which crosses more
  // spawns, outweighs the heavy continuation's.
  expectRow(R.finish(), 190, 92, 57 + 3 * Burden);
}

/// A parallel loop as parallel_for.cpp splits it: halves, the lower one
/// spawned, down to one iteration that takes Cost[I] ticks.
void parallelFor(Hooks &R, const std::vector<Ticks> &Cost, std::size_t Lo,
                 std::size_t Hi) {
  std::uint32_t F = R.enter();
  if (Hi - Lo == 1) {
    R.work(Cost[Lo]);
  } else {
    std::size_t Mid = Lo + (Hi - Lo) / 2;
    R.spawn(F);
    parallelFor(R, Cost, Lo, Mid);
    R.resume(F);
    parallelFor(R, Cost, Mid, Hi);
    R.sync(F);
  }
  R.exit(F);
}

// The work is the iterations' sum, the span the longest one, and every
// path crosses three levels of spawns.
TEST(WorkSpanBook, ParallelForOfEightIterations) {
  Hooks R;
  R.work(4);
  parallelFor(R, {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8);
  R.work(6);
  expectRow(R.finish(), 4 + 36 + 6, 4 + 8 + 6, 4 + 8 + 3 * Burden + 6);
}

// The longest iteration first: it is a spawned child's at every level.
TEST(WorkSpanBook, ParallelForLongestIterationSpawned) {
  Hooks R;
  parallelFor(R, {100, 1, 1, 1}, 0, 4);
  expectRow(R.finish(), 103, 100, 100 + 2 * Burden);
}

// A region is the difference of two readings (wsp_getworkspan).
TEST(WorkSpanBook, RegionIsTheDifferenceOfReadings) {
  Hooks R;
  R.work(100);
  Row Before = R.reading();
  std::uint32_t F = R.enter();
  R.spawn(F);
  R.work(40);
  R.resume(F);
  R.work(10);
  R.sync(F);
  R.exit(F);
  Row After = R.reading();
  EXPECT_EQ(After.Work - Before.Work, 50);
  EXPECT_EQ(After.Span - Before.Span, 40);
  EXPECT_EQ(After.BurdenedSpan - Before.BurdenedSpan, 40 + Burden);
}

// An exception that leaves a spawned child skips its exit and the
// parent's continue: the parent's next hook closes both records.
TEST(WorkSpanBook, ExceptionClosesRecordsAbove) {
  Hooks R;
  std::uint32_t F = R.enter();
  R.spawn(F);
  std::uint32_t G = R.enter();
  R.work(25);
  (void)G; // G's exit and F's continue never come
  EXPECT_EQ(R.Book.depth(), 4u);
  R.sync(F); // the handler's sync in f
  EXPECT_EQ(R.Book.depth(), 2u);
  R.work(5);
  R.exit(F);
  expectRow(R.finish(), 30, 30, 30 + Burden);
}

// Frames the book does not hold (a hook from before the measured thread
// claimed the analysis) change nothing; the program's record is never
// exited.
TEST(WorkSpanBook, UnknownFramesAreIgnored) {
  Hooks R;
  R.work(10);
  R.spawn(5);
  R.resume(5);
  R.sync(5);
  R.exit(5);
  R.exit(0);
  EXPECT_EQ(R.Book.depth(), 1u);
  expectRow(R.finish(), 10, 10, 10);
}

// Readings are converted with the clock's rate.
TEST(WorkSpanBook, ReadingsInNanoseconds) {
  SpanBook<FakeClock> Book;
  Book.clock().NsPerTick = 3;
  Book.setCosts({Burden, NoOffCpuCheck, 0});
  Book.startAt(0);
  Book.charge(10);
  expectRow(Book.reading(), 30, 30, 30);
}

// What a hook costs outside its readings is taken off every interval, and
// an interval shorter than that counts nothing.
TEST(WorkSpanBook, HookResidueTakenOffEachInterval) {
  Hooks R({Burden, NoOffCpuCheck, 3});
  std::uint32_t F = R.enter(); // interval 0: nothing
  R.work(10);                  // 7, f's
  R.spawn(F);
  R.work(2);                   // 0, the child's
  R.resume(F);
  R.work(20);                  // 17, f's continuation
  R.sync(F);
  R.exit(F);
  expectRow(R.finish(), 24, 24, 24 + Burden);
}

// The fast clock's long intervals are checked against the CPU-time clock:
// the time the thread did not run is charged to no strand.
TEST(WorkSpanBook, TimeOffTheCpuTakenOut) {
  Hooks R({Burden, 100, 0});
  R.HookCost = 0;
  std::uint32_t F = R.enter();
  R.work(50);
  R.clock().Now += 400; // preempted, no CPU time
  R.work(50);           // one interval of 500, 100 of them run
  R.exit(F);
  R.work(30); // shorter than the check: taken whole
  expectRow(R.finish(), 130, 130, 130);
}

// A hook that itself lost the CPU takes a new baseline, so that its time
// off the CPU is not taken out of the next strand too.
TEST(WorkSpanBook, PreemptedHookTakesNewBaseline) {
  Hooks R({Burden, 100, 0});
  R.HookCost = 300; // longer than the check: the hook was preempted
  std::uint32_t F = R.enter();
  R.work(150); // long, but all of it run
  R.exit(F);
  R.HookCost = 0;
  expectRow(R.finish(), 150, 150, 150);
}

// The CPU-time clock already leaves out time off the CPU: nothing is
// taken out, however long the interval.
TEST(WorkSpanBook, CpuClockIsNotCorrected) {
  SpanBook<FakeClock> Book;
  Book.clock().CpuTime = true;
  Book.setCosts({Burden, 100, 0});
  Book.startAt(0);
  Book.clock().CpuNs = 1; // would say the thread ran 1 ns of 500
  Book.charge(500);
  expectRow(Book.reading(), 500, 500, 500);
}

/// The CSV that printReport writes for \p Regions and \p Program.
std::string reportCsv(const std::vector<Row> &Regions, const Row &Program) {
  char *Text = nullptr;
  std::size_t Size = 0;
  std::FILE *Csv = open_memstream(&Text, &Size);
  weft::workspan::Clock C;
  weft::workspan::printReport(Regions, Program, C, Csv); // closes Csv
  std::string Out(Text, Size);
  std::free(Text);
  return Out;
}

// The parallelism is work over span, in Cilkscale's columns; a region
// with no span has none.
TEST(WorkSpanReport, CsvParallelism) {
  Row Program{"(program)", 145000, 115000, 125000};
  Row Region{"loop, inner", 36000, 8000, 0};
  std::string Csv = reportCsv({Region}, Program);
  EXPECT_EQ(Csv,
            "tag,work (seconds),span (seconds),parallelism,"
            "burdened_span (seconds),burdened_parallelism\n"
            "\"loop, inner\",0.000036000,0.000008000,4.5,0.000000000,nan\n"
            ",0.000145000,0.000115000,1.26087,0.000125000,1.16\n");
}

} // namespace
