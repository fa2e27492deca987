//===- workspan_book.h - The span bookkeeping of the work/span analysis ---===//
//
// The arithmetic of workspan.cpp, apart from the thread, settings and
// report around it: a stack of records, one per active spawning-function
// instance or spawned child, and the charging of each interval between two
// hooks to the work and to the current strand. workspan.cpp's file comment
// explains the records and what each hook does to them.
//
// The book reads time through its clock type, a template parameter, so
// that the analysis calls its real clock directly (no indirection in a
// hook) and a test can drive the book with a clock it advances by hand.
// A clock type provides:
//
//   Ticks now()                   a reading, in the clock's unit
//   bool countsCpuTime()          whether readings leave out time off the CPU
//   Ticks cpuTimeNs()             the thread's CPU time, in nanoseconds
//   std::int64_t nanoseconds(Ticks), Ticks ticks(std::int64_t Ns)
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_WORKSPAN_BOOK_H
#define WEFT_RUNTIME_WORKSPAN_BOOK_H

#include "workspan.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::workspan {

/// What the book takes out of or adds to the time it is given, in ticks.
struct Costs {
  /// A spawn's burden, added to the burdened span of both paths.
  Ticks Burden = 0;
  /// How long an interval must be before the book asks the CPU-time clock
  /// whether the thread ran all of it (fast clock only).
  Ticks OffCpuCheck = 0;
  /// What a hook costs outside its clock readings, taken off every
  /// interval (workspan.cpp, measureHookResidue).
  Ticks HookResidue = 0;
};

template <class ClockT> class SpanBook {
public:
  struct Record {
    Ticks Span = 0, BurdenedSpan = 0;
    Ticks ChildSpan = 0, BurdenedChildSpan = 0;
    /// A spawned child's strand, which the parent's continue closes; else
    /// a function instance, which its exit closes.
    bool Spawned = false;
  };

  SpanBook() {
    Records.reserve(256);
    Records.push_back(Record{}); // the program's own
  }

  ClockT &clock() { return C; }
  const ClockT &clock() const { return C; }

  void setCosts(const Costs &K) { Cost = K; }
  const Costs &costs() const { return Cost; }

  /// The first strand starts at \p Now.
  void startAt(Ticks Now) {
    Last = Now;
    takeCpuBaseline(Now);
  }

  /// Charges the time from the last restart() to \p Now to the current
  /// strand and to the work.
  void charge(Ticks Now) {
    // Now may precede Last by a little: counters of two cores, after a
    // migration, or a thread that claimed measurement after it read Now.
    Ticks Elapsed =
        Now > Last + Cost.HookResidue ? Now - Last - Cost.HookResidue : 0;
    if (Elapsed > Cost.OffCpuCheck && !C.countsCpuTime()) {
      Ticks Off = offCpuSinceBaseline(Now);
      Elapsed = Elapsed > Off ? Elapsed - Off : 0;
    }
    Work += Elapsed;
    top().Span += Elapsed;
    top().BurdenedSpan += Elapsed;
  }

  /// Starts the next interval, at the end of a hook that began at \p Begin.
  void restart(Ticks Begin) {
    Last = C.now();
    // The hook ran that long only if it lost its CPU: a new baseline, so
    // that the time is not taken out of the next long strand.
    if (Last - Begin > Cost.OffCpuCheck)
      takeCpuBaseline(Last);
  }

  /// The hooks (workspan.cpp); each names its function's record, and a
  /// frame the book does not hold is ignored.
  std::uint32_t enter() { return push(/*Spawned=*/false); }

  void spawn(std::uint32_t Frame) {
    if (!holds(Frame))
      return;
    unwindTo(Frame);
    push(/*Spawned=*/true);
  }

  void resume(std::uint32_t Frame) {
    if (!holds(Frame + 1))
      return;
    unwindTo(Frame + 1);
    closeTop();
  }

  void sync(std::uint32_t Frame) {
    if (!holds(Frame))
      return;
    unwindTo(Frame);
    joinChildren(top());
  }

  void exit(std::uint32_t Frame) {
    if (Frame == 0 || !holds(Frame))
      return;
    unwindTo(Frame);
    closeTop();
  }

  /// At the program's end: every record closed, the program's implicit
  /// sync taken.
  void closeAll() {
    unwindTo(0);
    joinChildren(top());
  }

  /// Work and span from the program's start to here, in nanoseconds.
  Row reading() const {
    const Record &Here = Records.back();
    return Row{"", C.nanoseconds(Work), C.nanoseconds(Here.Span),
               C.nanoseconds(Here.BurdenedSpan)};
  }

  /// The records now open, the program's included.
  std::size_t depth() const { return Records.size(); }

private:
  Record &top() { return Records.back(); }
  bool holds(std::uint32_t Frame) const { return Frame < Records.size(); }

  std::uint32_t push(bool Spawned) {
    Record R;
    R.Span = top().Span;
    R.BurdenedSpan = top().BurdenedSpan;
    R.Spawned = Spawned;
    Records.push_back(R);
    return static_cast<std::uint32_t>(Records.size() - 1);
  }

  static void joinChildren(Record &R) {
    R.Span = std::max(R.Span, R.ChildSpan);
    R.BurdenedSpan = std::max(R.BurdenedSpan, R.BurdenedChildSpan);
    R.ChildSpan = R.BurdenedChildSpan = 0;
  }

  /// Ends the top record, which returned (or was left by an exception):
  /// its implicit sync, then its path joins its parent's, after the
  /// continuation for a child and in sequence for a call.
  void closeTop() {
    Record Done = Records.back();
    Records.pop_back();
    joinChildren(Done);
    Record &Parent = top();
    if (Done.Spawned) {
      Parent.ChildSpan = std::max(Parent.ChildSpan, Done.Span);
      Parent.BurdenedChildSpan =
          std::max(Parent.BurdenedChildSpan, Done.BurdenedSpan + Cost.Burden);
      Parent.BurdenedSpan += Cost.Burden;
    } else {
      Parent.Span = Done.Span;
      Parent.BurdenedSpan = Done.BurdenedSpan;
    }
  }

  /// Closes the records above \p Frame's: what an exception left. Rare,
  /// so kept out of the hooks' straight path.
  void unwindTo(std::uint32_t Frame) {
    if (__builtin_expect(Records.size() > std::size_t(Frame) + 1, false))
      unwindAbove(Frame);
  }
  __attribute__((noinline, cold)) void unwindAbove(std::uint32_t Frame) {
    while (Records.size() > std::size_t(Frame) + 1)
      closeTop();
  }

  void takeCpuBaseline(Ticks Now) {
    if (C.countsCpuTime())
      return;
    BaselineClock = Now;
    BaselineCpuNs = C.cpuTimeNs();
  }

  /// The time since the baseline that the thread did not run, in ticks;
  /// the baseline moves to \p Now.
  Ticks offCpuSinceBaseline(Ticks Now) {
    Ticks CpuNs = C.cpuTimeNs();
    std::int64_t OffNs = C.nanoseconds(Now - BaselineClock) -
                         std::int64_t(CpuNs - BaselineCpuNs);
    BaselineClock = Now;
    BaselineCpuNs = CpuNs;
    return OffNs > 0 ? C.ticks(OffNs) : 0;
  }

  ClockT C;
  Costs Cost;
  Ticks Work = 0;
  Ticks Last = 0; // when the current strand's unmeasured time began
  // The clock and the measured thread's CPU time, read together.
  Ticks BaselineClock = 0;
  Ticks BaselineCpuNs = 0;
  std::vector<Record> Records; // [0] is the program's own
};

} // namespace weft::workspan

#endif // WEFT_RUNTIME_WORKSPAN_BOOK_H
