//===- workspan.cpp - Work, span and parallelism of a run (workspan mode) -===//
//
// What Cilkview and Cilkscale measure, for a program built with
// `weft-clang++ --weft-workspan`: its work T1 (the time of all its
// strands), its span T_inf (the longest chain of strands that the
// computation's dag orders) and their ratio, the parallelism, for the whole
// run and for the regions it brackets with wsp_getworkspan()
// (<cilk/cilkscale.h>). docs/workspan.md shows the output.
//
// The run is serial. A constructor that runs before any of the program's
// pins the worker count to one, so each spawned child runs to its end
// before its continuation, in the serial elision's order, and every strand
// is timed whole on one thread, with no steals to account for. The pass
// calls a hook at each strand boundary of a spawning function
// (plugin/analysis/WorkSpan.h). A hook charges the time since the previous one to
// the work and to the current strand, then updates a stack of records, one
// per active spawning-function instance or spawned child:
//
//   Span       the longest path from the program's start to here
//   ChildSpan  the longest path through a child spawned since the last
//              sync, to the child's end
//
//   enter      push a function's record, Span = the caller's
//   spawn      push a child's record, Span = the parent's
//   continue   pop the child's record (after its implicit sync), and
//              parent.ChildSpan = max(parent.ChildSpan, child.Span)
//   sync       Span = max(Span, ChildSpan), ChildSpan = 0
//   exit       sync, pop, and caller.Span = callee.Span (a call is serial)
//
// Spans are absolute, as in Cilkscale, so wsp_getworkspan() reads the top
// record and a region's span is the difference of two readings. The
// burdened span does the same with a spawn's burden added to the child's
// path and to the continuation's: what a steal there would cost.
//
// An exception that leaves a function (or a spawned child) skips its exit
// (or the parent's continue). Every hook names its function's record, and
// the records above it are closed first, as if they had returned.
//
// Only the first thread that runs a hook is measured; hooks on any other
// thread return at once. The hooks' own time is charged to no strand: each
// reads the clock when it starts and again when it ends, and what a hook
// costs outside its readings (the call, the readings' latency) is measured
// at start and taken off every interval.
//
// Time the thread spends off its CPU is charged to no strand either. The
// span is a maximum over paths, so one preemption on a busy machine, on any
// strand, would otherwise show in it whole. The fast clock counts real
// time; an interval longer than OffCpuCheck is when the analysis compares
// it with the thread's CPU-time clock (a system call) and takes out what
// the thread did not run. A preemption makes its interval that long, so
// only shorter ones stay, at the cost of one CPU-clock reading per long
// strand. A hook that was itself preempted takes a new baseline.
//
//===----------------------------------------------------------------------===//

// The real API, which <cilk/cilkscale.h> declares in workspan mode only.
#ifndef __weft_workspan__
#define __weft_workspan__ 1
#endif
#include <cilk/cilkscale.h>

#include "config.h"
#include "worker.h"
#include "workspan.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>

namespace weft::workspan {
namespace {

/// A spawn's burden in the burdened span: about what a steal of its
/// continuation costs here (a membarrier, resuming the frame, parking the
/// victim's stack; docs/workspan.md).
constexpr std::int64_t BurdenNs = 10000;

/// How long an interval of the fast clock must be before the analysis asks
/// the CPU-time clock whether the thread ran all of it.
constexpr std::int64_t OffCpuCheckNs = 100000;

/// A stand-in for a hook, for measureHookResidue(): reads the clock on
/// entry (returned) and on exit (into *End), as a hook does.
__attribute__((noinline)) Ticks probeHook(const Clock &C, Ticks *End) {
  Ticks Begin = C.now();
  asm volatile("" ::: "memory");
  *End = C.now();
  return Begin;
}

struct Record {
  Ticks Span = 0, BurdenedSpan = 0;
  Ticks ChildSpan = 0, BurdenedChildSpan = 0;
  /// A spawned child's strand, which the parent's continue closes; else a
  /// function instance, which its exit closes.
  bool Spawned = false;
};

class Analysis {
public:
  /// Before the program's own constructors: settings, clock, one worker.
  Analysis();
  /// At exit: the program's row and the report.
  void finish();

  bool isMeasuredThread();
  /// Charges the time from the last restart() to \p Now to the current
  /// strand and to the work.
  void charge(Ticks Now);
  /// Starts the next interval, at the end of a hook that began at \p Begin.
  void restart(Ticks Begin);

  std::uint32_t enter();
  void spawn(std::uint32_t Frame);
  void resume(std::uint32_t Frame);
  void sync(std::uint32_t Frame);
  void exit(std::uint32_t Frame);

  /// Work and span from the program's start to here, in nanoseconds.
  Row reading() const;
  void dump(Row Region);
  const Clock &clock() const { return C; }

private:
  Record &top() { return Records.back(); }
  bool holds(std::uint32_t Frame) const { return Frame < Records.size(); }
  std::uint32_t push(bool Spawned);
  void unwindTo(std::uint32_t Frame);
  void closeTop();
  static void joinChildren(Record &R);
  Ticks measureHookResidue() const;
  void takeCpuBaseline(Ticks Now);
  Ticks offCpuSinceBaseline(Ticks Now);

  Clock C;
  std::FILE *Csv = nullptr;
  Ticks Burden = 0;
  Ticks OffCpuCheck = 0;
  Ticks HookResidue = 0; // see measureHookResidue()
  Ticks Work = 0;
  Ticks Last = 0; // when the current strand's unmeasured time began
  // The fast clock and the measured thread's CPU time, read together.
  Ticks BaselineClock = 0;
  Ticks BaselineCpuNs = 0;
  std::vector<Record> Records; // [0] is the program's own
  pthread_t Starter;           // the thread whose clock Last was read on
  std::atomic<bool> Claimed{false};
  pthread_t Measured;
  std::mutex RegionsLock; // wsp_dump may come from any thread
  std::vector<Row> Regions;
};

/// Constructed before the program's own constructors, and never destroyed:
/// the report at exit runs after every destructor registered later.
union Instance {
  Instance() : Value() {}
  ~Instance() {}
  Analysis Value;
};
Instance Storage __attribute__((init_priority(101)));
Analysis &TheAnalysis = Storage.Value;

void reportAtExit() { TheAnalysis.finish(); }

Analysis::Analysis() : Starter(pthread_self()) {
  Settings S = readSettings();
  C.start(S.Clock);
  Csv = S.Csv;
  Burden = C.ticks(BurdenNs);
  OffCpuCheck = C.ticks(OffCpuCheckNs);
  HookResidue = measureHookResidue();
  nworkers_setting().pinToOne();
  Records.reserve(256);
  Records.push_back(Record{});
  std::atexit(reportAtExit);
  Last = C.now();
  takeCpuBaseline(Last);
}

/// What a hook costs outside its two clock readings: the call, the return
/// and the readings' own latency land in the intervals on either side. For
/// code with strands of a few nanoseconds (fib) that is most of what an
/// interval holds, so each interval is charged that much less: a low
/// percentile of the intervals between two calls of a stand-in hook with
/// nothing in between (not the least: a migration to a core whose counter
/// lags makes an interval look shorter than any can be).
Ticks Analysis::measureHookResidue() const {
  constexpr int Tries = 2000;
  std::vector<Ticks> Intervals;
  Intervals.reserve(Tries);
  Ticks End = 0;
  probeHook(C, &End);
  for (int Try = 0; Try < Tries; ++Try) {
    Ticks PreviousEnd = End;
    Ticks Begin = probeHook(C, &End);
    if (Begin > PreviousEnd)
      Intervals.push_back(Begin - PreviousEnd);
  }
  if (Intervals.empty())
    return 0;
  auto Percentile = Intervals.begin() + Intervals.size() / 10;
  std::nth_element(Intervals.begin(), Percentile, Intervals.end());
  return *Percentile;
}

void Analysis::takeCpuBaseline(Ticks Now) {
  if (C.countsCpuTime())
    return;
  BaselineClock = Now;
  BaselineCpuNs = Clock::read(CLOCK_THREAD_CPUTIME_ID);
}

/// The time since the baseline that the thread did not run, in ticks; the
/// baseline moves to \p Now.
Ticks Analysis::offCpuSinceBaseline(Ticks Now) {
  Ticks CpuNs = Clock::read(CLOCK_THREAD_CPUTIME_ID);
  std::int64_t OffNs = C.nanoseconds(Now - BaselineClock) -
                       std::int64_t(CpuNs - BaselineCpuNs);
  BaselineClock = Now;
  BaselineCpuNs = CpuNs;
  return OffNs > 0 ? C.ticks(OffNs) : 0;
}

/// Whether the calling thread is the measured one, the first to ask.
bool Analysis::isMeasuredThread() {
  enum class Role : unsigned char { Unknown, Measured, Ignored };
  static __thread Role ThreadRole = Role::Unknown;
  if (__builtin_expect(ThreadRole == Role::Measured, true))
    return true;
  if (ThreadRole == Role::Ignored)
    return false;
  bool Expected = false;
  if (!Claimed.compare_exchange_strong(Expected, true)) {
    ThreadRole = Role::Ignored;
    return false;
  }
  ThreadRole = Role::Measured;
  Measured = pthread_self();
  // The runtime's start (the pool, of one worker), inside this visit, is
  // no strand's: it would stand at the head of the span.
  current_or_new_worker();
  // A thread's CPU clock means nothing on another thread: a thread other
  // than the starter measures from here.
  if (!pthread_equal(Measured, Starter)) {
    Last = C.now();
    takeCpuBaseline(Last);
  }
  return true;
}

void Analysis::charge(Ticks Now) {
  // Now may precede Last by a little: counters of two cores, after a
  // migration, or a thread that claimed measurement after it read Now.
  Ticks Elapsed = Now > Last + HookResidue ? Now - Last - HookResidue : 0;
  if (Elapsed > OffCpuCheck && !C.countsCpuTime()) {
    Ticks Off = offCpuSinceBaseline(Now);
    Elapsed = Elapsed > Off ? Elapsed - Off : 0;
  }
  Work += Elapsed;
  top().Span += Elapsed;
  top().BurdenedSpan += Elapsed;
}

void Analysis::restart(Ticks Begin) {
  Last = C.now();
  // The hook ran that long only if it lost its CPU: a new baseline, so that
  // the time is not taken out of the next long strand.
  if (Last - Begin > OffCpuCheck)
    takeCpuBaseline(Last);
}

std::uint32_t Analysis::push(bool Spawned) {
  Record R;
  R.Span = top().Span;
  R.BurdenedSpan = top().BurdenedSpan;
  R.Spawned = Spawned;
  Records.push_back(R);
  return static_cast<std::uint32_t>(Records.size() - 1);
}

void Analysis::joinChildren(Record &R) {
  R.Span = std::max(R.Span, R.ChildSpan);
  R.BurdenedSpan = std::max(R.BurdenedSpan, R.BurdenedChildSpan);
  R.ChildSpan = R.BurdenedChildSpan = 0;
}

/// Ends the top record, which returned (or was left by an exception): its
/// implicit sync, then its path joins its parent's, after the continuation
/// for a child and in sequence for a call.
void Analysis::closeTop() {
  Record Done = Records.back();
  Records.pop_back();
  joinChildren(Done);
  Record &Parent = top();
  if (Done.Spawned) {
    Parent.ChildSpan = std::max(Parent.ChildSpan, Done.Span);
    Parent.BurdenedChildSpan =
        std::max(Parent.BurdenedChildSpan, Done.BurdenedSpan + Burden);
    Parent.BurdenedSpan += Burden;
  } else {
    Parent.Span = Done.Span;
    Parent.BurdenedSpan = Done.BurdenedSpan;
  }
}

/// Closes the records above \p Frame's: what an exception left.
void Analysis::unwindTo(std::uint32_t Frame) {
  while (Records.size() > std::size_t(Frame) + 1)
    closeTop();
}

std::uint32_t Analysis::enter() { return push(/*Spawned=*/false); }

void Analysis::spawn(std::uint32_t Frame) {
  if (!holds(Frame))
    return;
  unwindTo(Frame);
  push(/*Spawned=*/true);
}

void Analysis::resume(std::uint32_t Frame) {
  if (!holds(Frame + 1))
    return;
  unwindTo(Frame + 1);
  closeTop();
}

void Analysis::sync(std::uint32_t Frame) {
  if (!holds(Frame))
    return;
  unwindTo(Frame);
  joinChildren(top());
}

void Analysis::exit(std::uint32_t Frame) {
  if (Frame == 0 || !holds(Frame))
    return;
  unwindTo(Frame);
  closeTop();
}

Row Analysis::reading() const {
  const Record &Here = Records.back();
  return Row{"", C.nanoseconds(Work), C.nanoseconds(Here.Span),
             C.nanoseconds(Here.BurdenedSpan)};
}

void Analysis::dump(Row Region) {
  std::lock_guard<std::mutex> Guard(RegionsLock);
  Regions.push_back(std::move(Region));
}

void Analysis::finish() {
  // The time since the last hook is the last strand's, if the measured
  // thread is the one leaving (a CPU clock is no other thread's).
  bool Charged = Claimed.load() ? pthread_equal(pthread_self(), Measured)
                                : pthread_equal(pthread_self(), Starter);
  if (Charged)
    charge(C.now());
  unwindTo(0);
  joinChildren(top());
  Row Program = reading();
  Program.Tag = "(program)";
  std::lock_guard<std::mutex> Guard(RegionsLock);
  printReport(Regions, Program, C, Csv);
}

/// A hook's visit, on the measured thread: the time since the last visit
/// is charged on entry and the clock restarts on the way out, so that the
/// analysis's own time belongs to no strand.
class Visit {
public:
  // The clock first: the thread check is no strand's time.
  Visit() : Begin(TheAnalysis.clock().now()) {
    Measured = TheAnalysis.isMeasuredThread();
    if (Measured)
      TheAnalysis.charge(Begin);
  }
  ~Visit() {
    if (Measured)
      TheAnalysis.restart(Begin);
  }
  Visit(const Visit &) = delete;
  Visit &operator=(const Visit &) = delete;
  explicit operator bool() const { return Measured; }

private:
  Ticks Begin;
  bool Measured = false;
};

} // namespace
} // namespace weft::workspan

using weft::workspan::TheAnalysis;
using weft::workspan::Ticks;
using weft::workspan::Visit;

extern "C" {

// The hooks the pass emits in workspan mode (plugin/analysis/WorkSpan.h).

std::uint32_t __weft_workspan_enter(void) {
  Visit V;
  return V ? TheAnalysis.enter() : 0;
}

void __weft_workspan_spawn(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.spawn(Frame);
}

void __weft_workspan_continue(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.resume(Frame);
}

void __weft_workspan_sync(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.sync(Frame);
}

void __weft_workspan_exit(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.exit(Frame);
}

// <cilk/cilkscale.h>, as Cilkscale defines it.

wsp_t wsp_getworkspan(void) noexcept {
  Visit V;
  if (!V)
    return wsp_zero();
  weft::workspan::Row Here = TheAnalysis.reading();
  return wsp_t{Here.Work, Here.Span, Here.BurdenedSpan};
}

void wsp_dump(wsp_t Region, const char *Tag) {
  Visit V; // the copy of the tag is no strand's work either
  TheAnalysis.dump({Tag ? Tag : "", Region.work, Region.span, Region.bspan});
}

} // extern "C"
