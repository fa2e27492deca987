// Shared by every benchmark variant: a wall-clock timer around the kernel
// and one result line that bench/run.py parses. Each variant prints
//   bench: result=<checked value> seconds=<kernel wall time> rss_kb=<peak>
// Process start-up and input generation are outside the timed region; the
// runtime's own start-up (thread pools) is inside it, for every runtime.
// Built for the work/span analysis (run.py --workspan), the Weft variant
// also reports the kernel's work and span as the region "kernel".
#ifndef WEFT_BENCH_COMMON_H
#define WEFT_BENCH_COMMON_H

#if defined(__weft_workspan__)
#include <cilk/cilkscale.h>
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {

/// Threads for the runtimes that take a count (TBB); OpenMP reads
/// OMP_NUM_THREADS and Weft WEFT_NWORKERS, which run.py sets alike.
inline int threads() {
  const char *V = std::getenv("BENCH_THREADS");
  return V ? std::atoi(V) : 1;
}

inline long arg(int argc, char **argv, int I, long Default) {
  return argc > I ? std::atol(argv[I]) : Default;
}

/// Peak resident set of this process image (VmHWM). getrusage's maxrss is
/// no use here: Linux carries it across exec from the forking parent.
inline long peak_rss_kb() {
  std::FILE *F = std::fopen("/proc/self/status", "r");
  if (!F)
    return -1;
  char Line[256];
  long Kb = -1;
  while (std::fgets(Line, sizeof Line, F))
    if (std::strncmp(Line, "VmHWM:", 6) == 0)
      Kb = std::atol(Line + 6);
  std::fclose(F);
  return Kb;
}

/// Hides a value from the optimizer, so that a pure kernel can be neither
/// hoisted above the start of the timer nor sunk below its end.
template <typename T> inline void launder(T &V) { asm volatile("" : "+r"(V) : : "memory"); }

/// Times Kernel(Input), then reduces what the kernel produced to the checked
/// value with Digest, outside the timed region (a checksum of a sorted array
/// or of a matrix), and prints the result line. Returns the checked value, so
/// that the caller can compare it with what it expects.
template <typename Input, typename Kernel, typename Digest>
long long run(Input In, Kernel &&K, Digest &&D) {
#if defined(__weft_workspan__)
  wsp_t Before = wsp_getworkspan();
#endif
  auto Start = std::chrono::steady_clock::now();
  launder(In);
  auto Out = K(In);
  launder(Out);
  auto End = std::chrono::steady_clock::now();
#if defined(__weft_workspan__)
  wsp_dump(wsp_getworkspan() - Before, "kernel");
#endif
  double Seconds = std::chrono::duration<double>(End - Start).count();
  long long Result = static_cast<long long>(D(Out));
  std::printf("bench: result=%lld seconds=%.6f rss_kb=%ld\n", Result, Seconds, peak_rss_kb());
  return Result;
}

/// Times Kernel(Input), whose return value is the checked value itself.
template <typename Input, typename Kernel> long long run(Input In, Kernel &&K) {
  return run(In, K, [](auto Out) { return Out; });
}

/// Reports a wrong result and gives the exit status for it.
inline int mismatch(const char *What, long long Got, long long Expected) {
  std::fprintf(stderr, "bench: WRONG %s: got %lld, expected %lld\n", What, Got, Expected);
  return 1;
}

} // namespace bench

#endif // WEFT_BENCH_COMMON_H
