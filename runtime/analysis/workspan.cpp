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
// The records and that arithmetic are the SpanBook of workspan_book.h,
// over this file's clock; this file holds what surrounds them: the measured
// thread, the settings, the hooks' visits and the report.
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
#include "workspan_book.h"

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

class Analysis {
public:
  /// Before the program's own constructors: settings, clock, one worker.
  Analysis();
  /// At exit: the program's row and the report.
  void finish();

  bool isMeasuredThread();
  /// The span bookkeeping (workspan_book.h): the hooks' records.
  SpanBook<Clock> &book() { return Book; }
  const Clock &clock() const { return Book.clock(); }
  void dump(Row Region);

private:
  Ticks measureHookResidue() const;

  SpanBook<Clock> Book;
  std::FILE *Csv = nullptr;
  pthread_t Starter; // the thread whose clock the first strand started on
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
  Clock &C = Book.clock();
  C.start(S.Clock);
  Csv = S.Csv;
  Costs K;
  K.Burden = C.ticks(BurdenNs);
  K.OffCpuCheck = C.ticks(OffCpuCheckNs);
  K.HookResidue = measureHookResidue();
  Book.setCosts(K);
  nworkers_setting().pinToOne();
  std::atexit(reportAtExit);
  Book.startAt(C.now());
}

/// What a hook costs outside its two clock readings: the call, the return
/// and the readings' own latency land in the intervals on either side. For
/// code with strands of a few nanoseconds (fib) that is most of what an
/// interval holds, so each interval is charged that much less: a low
/// percentile of the intervals between two calls of a stand-in hook with
/// nothing in between (not the least: a migration to a core whose counter
/// lags makes an interval look shorter than any can be).
Ticks Analysis::measureHookResidue() const {
  // Enough intervals that the percentile is steady, few enough to take
  // well under a millisecond.
  constexpr int Tries = 2000;
  // The 10th percentile: past the few intervals a lagging counter shortens.
  constexpr std::size_t PercentileDivisor = 10;
  std::vector<Ticks> Intervals;
  Intervals.reserve(Tries);
  const Clock &C = clock();
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
  auto Percentile = Intervals.begin() + Intervals.size() / PercentileDivisor;
  std::nth_element(Intervals.begin(), Percentile, Intervals.end());
  return *Percentile;
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
  if (!pthread_equal(Measured, Starter))
    Book.startAt(clock().now());
  return true;
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
    Book.charge(clock().now());
  Book.closeAll();
  Row Program = Book.reading();
  Program.Tag = "(program)";
  std::lock_guard<std::mutex> Guard(RegionsLock);
  printReport(Regions, Program, clock(), Csv);
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
      TheAnalysis.book().charge(Begin);
  }
  ~Visit() {
    if (Measured)
      TheAnalysis.book().restart(Begin);
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
  return V ? TheAnalysis.book().enter() : 0;
}

void __weft_workspan_spawn(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.book().spawn(Frame);
}

void __weft_workspan_continue(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.book().resume(Frame);
}

void __weft_workspan_sync(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.book().sync(Frame);
}

void __weft_workspan_exit(std::uint32_t Frame) {
  if (Visit V; V)
    TheAnalysis.book().exit(Frame);
}

// <cilk/cilkscale.h>, as Cilkscale defines it.

wsp_t wsp_getworkspan(void) noexcept {
  Visit V;
  if (!V)
    return wsp_zero();
  weft::workspan::Row Here = TheAnalysis.book().reading();
  return wsp_t{Here.Work, Here.Span, Here.BurdenedSpan};
}

void wsp_dump(wsp_t Region, const char *Tag) {
  Visit V; // the copy of the tag is no strand's work either
  TheAnalysis.dump({Tag ? Tag : "", Region.work, Region.span, Region.bspan});
}

} // extern "C"
