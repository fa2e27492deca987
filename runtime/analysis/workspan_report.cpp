//===- workspan_report.cpp - Settings, clock rate, report of the analysis -===//
//
// workspan.h lists the settings; workspan.cpp is the analysis itself.
//
//===----------------------------------------------------------------------===//

#include "workspan.h"

#include "config.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace weft::workspan {
namespace {

ClockKind readClockKind() {
  const char *Value = std::getenv("WEFT_WORKSPAN_CLOCK");
  if (!Value || std::strcmp(Value, "fast") == 0)
    return ClockKind::Fast;
  if (std::strcmp(Value, "cpu") == 0)
    return ClockKind::Cpu;
  invalid_setting("WEFT_WORKSPAN_CLOCK", Value, "fast or cpu");
}

/// The CSV file: Weft's variable, else Cilkscale's.
std::FILE *openCsv() {
  const char *Name = "WEFT_WORKSPAN_OUT";
  const char *Path = std::getenv(Name);
  if (!Path) {
    Name = "CILKSCALE_OUT";
    Path = std::getenv(Name);
  }
  if (!Path)
    return nullptr;
  std::FILE *Csv = std::fopen(Path, "w");
  if (!Csv) {
    std::fprintf(stderr, "weft: cannot write %s='%s': %s\n", Name, Path,
                 std::strerror(errno));
    std::exit(2);
  }
  return Csv;
}

#if defined(WEFT_WORKSPAN_COUNTER)
/// A counter reading (workspan.h) and the CLOCK_MONOTONIC time it was taken
/// at, from the tightest of a few tries.
struct ClockPair {
  Ticks Counter = 0, Ns = 0;
};

/// Tries per pair: one of a few is rarely interrupted between its readings.
constexpr int ClockPairTries = 8;
/// The time between the two pairs: long enough that each pair's error
/// (tens of ns) is 1e-5 of it, short enough to go unnoticed at exit.
constexpr long CalibrationNapNs = 2000000;

ClockPair readClockPair() {
  ClockPair Best;
  Ticks BestWindow = ~Ticks(0);
  for (int Try = 0; Try < ClockPairTries; ++Try) {
    Ticks Before = Clock::read(CLOCK_MONOTONIC);
    Ticks Counter = Clock::readCounter();
    Ticks After = Clock::read(CLOCK_MONOTONIC);
    if (After - Before < BestWindow) {
      BestWindow = After - Before;
      Best = {Counter, Before + (After - Before) / 2};
    }
  }
  return Best;
}

/// Nanoseconds per tick of the time-stamp counter. Both clocks count real
/// time, so the 2 ms between the pairs may be slept, or preempted; only how
/// tightly each pair is read matters (tens of ns in 2 ms: 1e-5).
double measureCounterRate() {
  ClockPair First = readClockPair();
  timespec Nap = {0, CalibrationNapNs};
  nanosleep(&Nap, nullptr);
  ClockPair Second = readClockPair();
  return double(Second.Ns - First.Ns) / double(Second.Counter - First.Counter);
}
#endif

double ratio(std::int64_t Work, std::int64_t Span) {
  return Span > 0 ? double(Work) / double(Span) : NAN;
}

/// A tag as a CSV field: quoted if it holds a comma, a quote or a newline.
void printCsvField(std::FILE *Out, const std::string &Field) {
  if (Field.find_first_of(",\"\n") == std::string::npos) {
    std::fputs(Field.c_str(), Out);
    return;
  }
  std::fputc('"', Out);
  for (char Ch : Field) {
    if (Ch == '"')
      std::fputc('"', Out);
    std::fputc(Ch, Out);
  }
  std::fputc('"', Out);
}

void printCsv(std::FILE *Out, const std::vector<Row> &Regions,
              const Row &Program) {
  std::fputs("tag,work (seconds),span (seconds),parallelism,"
             "burdened_span (seconds),burdened_parallelism\n",
             Out);
  auto PrintRow = [&](const std::string &Tag, const Row &R) {
    printCsvField(Out, Tag);
    std::fprintf(Out, ",%.9f,%.9f,%g,%.9f,%g\n", R.Work * 1e-9, R.Span * 1e-9,
                 ratio(R.Work, R.Span), R.BurdenedSpan * 1e-9,
                 ratio(R.Work, R.BurdenedSpan));
  };
  for (const Row &R : Regions)
    PrintRow(R.Tag, R);
  PrintRow("", Program); // Cilkscale's program row has no tag
}

/// A parallelism for the table: "-" when the span is zero.
void printRatio(int Width, double Value) {
  if (std::isnan(Value))
    std::fprintf(stderr, " %*s", Width, "-");
  else
    std::fprintf(stderr, " %*.2f", Width, Value);
}

void printTable(const std::vector<Row> &Regions, const Row &Program,
                const Clock &C) {
  int TagWidth = int(Program.Tag.size());
  for (const Row &R : Regions)
    TagWidth = std::max(TagWidth, std::min(int(R.Tag.size()), 40));
  std::fprintf(stderr,
               "weft-workspan: work, span and parallelism on one worker "
               "(times in seconds, clock %s)\n",
               C.name());
  std::fprintf(stderr, "%-*s %12s %12s %12s %14s %21s\n", TagWidth, "tag",
               "work", "span", "parallelism", "burdened span",
               "burdened parallelism");
  auto PrintRow = [&](const Row &R) {
    std::fprintf(stderr, "%-*s %12.6f %12.6f", TagWidth, R.Tag.c_str(),
                 R.Work * 1e-9, R.Span * 1e-9);
    printRatio(12, ratio(R.Work, R.Span));
    std::fprintf(stderr, " %14.6f", R.BurdenedSpan * 1e-9);
    printRatio(21, ratio(R.Work, R.BurdenedSpan));
    std::fputc('\n', stderr);
  };
  for (const Row &R : Regions)
    PrintRow(R);
  PrintRow(Program);
}

} // namespace

Settings readSettings() {
  Settings S;
  S.Clock = readClockKind();
  S.Csv = openCsv();
  return S;
}

void Clock::start(ClockKind K) {
  Kind = K;
  NsPerTick = 1.0;
#if defined(WEFT_WORKSPAN_COUNTER)
  if (Kind == ClockKind::Fast)
    NsPerTick = measureCounterRate();
#endif
}

const char *Clock::name() const {
  if (Kind == ClockKind::Cpu)
    return "cpu (CLOCK_THREAD_CPUTIME_ID)";
#if defined(__x86_64__)
  return "fast (rdtsc, time off the CPU taken out)";
#elif defined(WEFT_WORKSPAN_COUNTER)
  return "fast (cntvct_el0, time off the CPU taken out)";
#else
  return "fast (CLOCK_MONOTONIC, time off the CPU taken out)";
#endif
}

void printReport(const std::vector<Row> &Regions, const Row &Program,
                 const Clock &C, std::FILE *Csv) {
  // The program's own output comes first, as for the weft-stats line.
  std::fflush(stdout);
  printTable(Regions, Program, C);
  if (Csv) {
    printCsv(Csv, Regions, Program);
    std::fclose(Csv);
  }
}

} // namespace weft::workspan
