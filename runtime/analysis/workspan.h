//===- workspan.h - The work/span analysis: clock, settings, report -------===//
//
// Shared by the analysis (workspan.cpp: the records, the hooks the pass
// emits in workspan mode, <cilk/cilkscale.h>'s API) and its settings and
// report (workspan_report.cpp). docs/workspan.md describes the mode.
//
//   WEFT_WORKSPAN_CLOCK=fast|cpu
//                      fast (default): the time-stamp counter on x86-64
//                      (CLOCK_MONOTONIC elsewhere), without the time the
//                      thread spent off its CPU; cpu: the thread's CPU-time
//                      clock at every hook, a system call per reading
//   WEFT_WORKSPAN_OUT=path, or CILKSCALE_OUT=path (OpenCilk's name)
//                      also write the report as CSV, in Cilkscale's columns
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_WORKSPAN_H
#define WEFT_RUNTIME_WORKSPAN_H

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

// The fast clock's counter: x86-64's time-stamp counter, AArch64's virtual
// counter (cntvct_el0, which Linux lets user code read, ticking at one
// fixed rate on every core, as constant_tsc does); elsewhere the fast clock
// is CLOCK_MONOTONIC itself.
#if defined(__x86_64__) || defined(__aarch64__)
#define WEFT_WORKSPAN_COUNTER 1
#endif

namespace weft::workspan {

/// Clock readings and durations in the clock's own unit (Clock::NsPerTick).
using Ticks = std::uint64_t;

enum class ClockKind { Fast, Cpu };

struct Settings {
  ClockKind Clock = ClockKind::Fast;
  std::FILE *Csv = nullptr; // open for writing, or none
};

/// Reads WEFT_WORKSPAN_CLOCK and the CSV path, opening the file; a bad
/// value prints one line and exits with status 2, as every Weft setting.
Settings readSettings();

/// The clock behind every measurement, chosen once at start.
class Clock {
public:
  /// Selects \p Kind and, for the time-stamp counter, measures its rate
  /// against CLOCK_MONOTONIC (workspan_report.cpp).
  void start(ClockKind Kind);

  /// Whether readings count the thread's CPU time only; the fast clock
  /// counts real time, and the analysis takes the time off the CPU out.
  bool countsCpuTime() const { return Kind == ClockKind::Cpu; }

  Ticks now() const {
    if (Kind == ClockKind::Cpu)
      return read(CLOCK_THREAD_CPUTIME_ID);
#if defined(WEFT_WORKSPAN_COUNTER)
    return readCounter();
#else
    return read(CLOCK_MONOTONIC);
#endif
  }

  std::int64_t nanoseconds(Ticks T) const {
    return static_cast<std::int64_t>(static_cast<double>(T) * NsPerTick);
  }
  Ticks ticks(std::int64_t Ns) const {
    return static_cast<Ticks>(static_cast<double>(Ns) / NsPerTick);
  }

  /// The calling thread's CPU time, in nanoseconds: a system call.
  static Ticks cpuTimeNs() { return read(CLOCK_THREAD_CPUTIME_ID); }

  const char *name() const;

#if defined(WEFT_WORKSPAN_COUNTER)
  /// A few cycles, no fence: a hook is not the place to order loads.
  static Ticks readCounter() {
#if defined(__x86_64__)
    return __rdtsc();
#else
    Ticks Counter;
    asm volatile("mrs %0, cntvct_el0" : "=r"(Counter));
    return Counter;
#endif
  }
#endif

  static Ticks read(clockid_t Id) {
    timespec Ts;
    clock_gettime(Id, &Ts);
    return Ticks(Ts.tv_sec) * 1000000000u + Ticks(Ts.tv_nsec);
  }

private:
  ClockKind Kind = ClockKind::Fast;
  double NsPerTick = 1.0;
};

/// One line of the report, in nanoseconds (Cilkscale's raw durations).
struct Row {
  std::string Tag;
  std::int64_t Work = 0, Span = 0, BurdenedSpan = 0;
};

/// Prints the table to stderr and, if \p Csv is open, the CSV there; the
/// program's row comes last, with an empty tag in the CSV as in Cilkscale.
void printReport(const std::vector<Row> &Regions, const Row &Program,
                 const Clock &C, std::FILE *Csv);

} // namespace weft::workspan

#endif // WEFT_RUNTIME_WORKSPAN_H
