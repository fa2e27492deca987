//===- benchmark.cpp - Cilkscale's benchmark mode: regions' wall time -----===//
//
// A program built with -fcilktool=cilkscale-benchmark (the plugin's
// cilkscale-benchmark argument) runs in parallel as usual, and
// <cilk/cilkscale.h> reads wall-clock time: wsp_getworkspan()'s work is the
// time since the program started, so a difference of two readings is the
// region's time, and wsp_dump() writes it as a CSV row, `tag,seconds`,
// under OpenCilk's header `tag,time (seconds)`, at once: to the file named
// by WEFT_WORKSPAN_OUT or CILKSCALE_OUT, else to stdout, as OpenCilk's
// tool does. At exit, a last row with an empty tag holds the whole run's
// time. weft-scale (tools/weft-scale) runs such a build at each worker
// count and sets the times against the work/span analysis's bounds.
//
// Rows may be dumped from parallel strands: each is one locked write.
//
//===----------------------------------------------------------------------===//

#include "config.h"

#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {

using Clock = std::chrono::steady_clock;

class Report {
public:
  Report() : Start(Clock::now()) {}

  ~Report() { row("", sinceStart()); }

  std::int64_t sinceStart() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                                Start)
        .count();
  }

  void row(const char *Tag, std::int64_t Ns) {
    std::lock_guard<std::mutex> Lock(Writing);
    std::FILE *Out = output();
    if (!HeaderWritten) {
      std::fputs("tag,time (seconds)\n", Out);
      HeaderWritten = true;
    }
    std::fprintf(Out, "%s,%.9f\n", Tag ? Tag : "", double(Ns) * 1e-9);
    std::fflush(Out);
  }

private:
  /// The CSV file: Weft's variable, else Cilkscale's, else stdout.
  std::FILE *output() {
    if (Out)
      return Out;
    const char *Name = "WEFT_WORKSPAN_OUT";
    const char *Path = std::getenv(Name);
    if (!Path) {
      Name = "CILKSCALE_OUT";
      Path = std::getenv(Name);
    }
    Out = Path ? std::fopen(Path, "w") : stdout;
    if (!Out) {
      std::fprintf(stderr, "weft: cannot write %s='%s': %s\n", Name, Path,
                   std::strerror(errno));
      std::_Exit(2);
    }
    return Out;
  }

  Clock::time_point Start;
  std::mutex Writing;
  std::FILE *Out = nullptr;
  bool HeaderWritten = false;
};

/// Made before the program's own static objects (the constructor's
/// priority runs it first), so destroyed after them, at exit.
Report &report() {
  static Report R;
  return R;
}

[[gnu::constructor(101)]] void startClock() { report(); }

} // namespace

extern "C" {

/// Named by every program the driver links in benchmark mode, so that the
/// report (and its last row, the whole run) is there even if the program
/// never reads the clock.
void __weft_cilkscale_benchmark(void) {}

std::int64_t __weft_cilkscale_benchmark_now(void) {
  return report().sinceStart();
}

void __weft_cilkscale_benchmark_dump(std::int64_t Ns, const char *Tag) {
  report().row(Tag, Ns);
}

} // extern "C"
