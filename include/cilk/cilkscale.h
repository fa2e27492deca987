/*===- cilk/cilkscale.h - Work and span of regions (Cilkscale's API) ------===*\
 *
 * OpenCilk's Cilkscale API, for programs built with `weft-clang++
 * --weft-workspan` (docs/workspan.md):
 *
 *   #include <cilk/cilkscale.h>
 *   wsp_t start = wsp_getworkspan();
 *   sort(a, n);                                  // any parallel code
 *   wsp_t end = wsp_getworkspan();
 *   wsp_dump(end - start, "sort");               // C: wsp_sub(end, start)
 *
 * wsp_getworkspan() returns the work and span of the run from its start to
 * the call, and the span burdened with a steal's cost per spawn, in
 * nanoseconds; differences of two readings measure the region between
 * them. wsp_dump() adds a row to the report printed at exit (a table on
 * stderr; CSV to the file named by WEFT_WORKSPAN_OUT or CILKSCALE_OUT).
 *
 * Built with -fcilktool=cilkscale-benchmark instead (the plugin's
 * cilkscale-benchmark argument), the program runs in parallel and a
 * reading's work is the wall-clock time since the run started (span and
 * burdened span are zero): wsp_dump() writes `tag,seconds` of a
 * difference at once, as OpenCilk's benchmark tool does (docs/workspan.md,
 * "Benchmark mode").
 *
 * Outside both modes (without the plugin, or with it in normal mode)
 * these are what OpenCilk's header gives without -fcilktool=cilkscale:
 * every reading is zero, wsp_dump() does nothing and `os << w` prints
 * nothing, so the program compiles and runs unchanged.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILKSCALE_H
#define WEFT_CILK_CILKSCALE_H

#ifdef __cplusplus
#include <cstdint>
#include <ostream>
#define WEFT_WSP_EXTERN_C extern "C"
#define WEFT_WSP_NOEXCEPT noexcept
#define WEFT_WSP_NOTHROW noexcept
#else
#include <stdint.h>
#define WEFT_WSP_EXTERN_C
#define WEFT_WSP_NOEXCEPT
#define WEFT_WSP_NOTHROW __attribute__((nothrow))
#endif

typedef int64_t raw_duration_t; /* nanoseconds */

typedef struct wsp_t {
  raw_duration_t work;
  raw_duration_t span;
  raw_duration_t bspan; /* the burdened span */
} wsp_t;

static inline wsp_t wsp_zero(void) WEFT_WSP_NOEXCEPT {
  wsp_t zero = {0, 0, 0};
  return zero;
}

static inline wsp_t wsp_add(wsp_t lhs, wsp_t rhs) WEFT_WSP_NOEXCEPT {
  wsp_t sum = {lhs.work + rhs.work, lhs.span + rhs.span, lhs.bspan + rhs.bspan};
  return sum;
}

static inline wsp_t wsp_sub(wsp_t lhs, wsp_t rhs) WEFT_WSP_NOEXCEPT {
  wsp_t difference = {lhs.work - rhs.work, lhs.span - rhs.span,
                      lhs.bspan - rhs.bspan};
  return difference;
}

#if defined(__weft_workspan__)

WEFT_WSP_EXTERN_C wsp_t wsp_getworkspan(void) WEFT_WSP_NOTHROW;
WEFT_WSP_EXTERN_C void wsp_dump(wsp_t wsp, const char *tag);

#elif defined(__weft_cilkscale_benchmark__)

/* Benchmark mode: wall-clock time of the parallel run
 * (runtime/analysis/benchmark.cpp). */
WEFT_WSP_EXTERN_C int64_t __weft_cilkscale_benchmark_now(void) WEFT_WSP_NOTHROW;
WEFT_WSP_EXTERN_C void __weft_cilkscale_benchmark_dump(int64_t ns,
                                                       const char *tag);
static inline wsp_t wsp_getworkspan(void) WEFT_WSP_NOEXCEPT {
  wsp_t now = {__weft_cilkscale_benchmark_now(), 0, 0};
  return now;
}
static inline void wsp_dump(wsp_t wsp, const char *tag) {
  __weft_cilkscale_benchmark_dump(wsp.work, tag);
}

#else

static inline wsp_t wsp_getworkspan(void) WEFT_WSP_NOEXCEPT {
  return wsp_zero();
}
static inline void wsp_dump(wsp_t wsp, const char *tag) {
  (void)wsp;
  (void)tag;
}

#endif

#ifdef __cplusplus

inline wsp_t &operator+=(wsp_t &lhs, const wsp_t &rhs) noexcept {
  return lhs = wsp_add(lhs, rhs);
}
inline wsp_t &operator-=(wsp_t &lhs, const wsp_t &rhs) noexcept {
  return lhs = wsp_sub(lhs, rhs);
}
inline wsp_t operator+(wsp_t lhs, const wsp_t &rhs) noexcept {
  return wsp_add(lhs, rhs);
}
inline wsp_t operator-(wsp_t lhs, const wsp_t &rhs) noexcept {
  return wsp_sub(lhs, rhs);
}

/* "work, span, parallelism, burdened span, burdened parallelism", times in
 * seconds, as Cilkscale prints a reading. */
inline std::ostream &operator<<(std::ostream &os, const wsp_t &w) {
#if defined(__weft_workspan__)
  os << w.work * 1e-9 << ", " << w.span * 1e-9 << ", "
     << double(w.work) / double(w.span) << ", " << w.bspan * 1e-9 << ", "
     << double(w.work) / double(w.bspan);
#elif defined(__weft_cilkscale_benchmark__)
  os << w.work * 1e-9; // the time, in seconds, as OpenCilk's benchmark prints
#else
  (void)w;
#endif
  return os;
}

#endif /* __cplusplus */

#undef WEFT_WSP_EXTERN_C
#undef WEFT_WSP_NOEXCEPT
#undef WEFT_WSP_NOTHROW

#endif /* WEFT_CILK_CILKSCALE_H */
