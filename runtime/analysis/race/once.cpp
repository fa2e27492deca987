//===- once.cpp - One-time initialisation orders its initialiser ----------===//
//
// `pthread_once`, C11's `call_once` and C++'s `std::call_once` (which
// libstdc++ builds on pthread_once) run an initialiser once, and every
// caller returns only after it has finished: what it wrote is ordered
// before everything the callers do next. So does C++'s initialisation of a
// function-local static: the first caller to get the guard
// (`__cxa_guard_acquire` returns 1) constructs the object and releases the
// guard (`__cxa_guard_release`, or `__cxa_guard_abort` if the constructor
// throws), and every other caller waits for it or finds it done. In the detector's serial run the
// first caller runs it, and a logically parallel caller that then reads
// what it set up would be reported as racing with it.
//
// So the race runtime defines these functions, in front of glibc's and
// libstdc++'s (a program linked with libweft_race.a has them in its
// executable, which the dynamic linker prefers): the initialiser, or the
// static's construction between the guard's acquire and its release, runs
// with checking off
// (Detector::disableChecking(), as <cilk/cilksan.h>'s call does), so its
// accesses are neither checked nor recorded. What that gives up, a race
// between the initialiser and a parallel access that does not go through
// the once-call, docs/race.md says.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"
#include "analysis/race/next_symbol.h"

#include <pthread.h>
#include <threads.h>

#include <cstdint>

using weft::race::Detector;
using weft::race::nextSymbol;

namespace {

/// The initialisers being run, innermost last (an initialiser may run
/// another once-call of its own).
constexpr unsigned kNested = 16;
thread_local void (*Initialisers[kNested])(void);
thread_local unsigned Depth = 0;

/// Checking off while it lives, also if the initialiser throws.
struct CheckingOff {
  CheckingOff() { Detector::disableChecking(); }
  ~CheckingOff() { Detector::enableChecking(); }
};

void runInitialiser() {
  CheckingOff Off;
  Initialisers[Depth - 1]();
}

/// Calls \p Real with the initialiser wrapped, on the followed thread.
template <class OnceFn, class Flag>
auto onceUnchecked(OnceFn *Real, Flag *F, void (*Init)(void)) {
  if (!Detector::follows() || Depth == kNested)
    return Real(F, Init);
  Initialisers[Depth++] = Init;
  struct Pop {
    ~Pop() { --Depth; }
  } Popped;
  return Real(F, &runInitialiser);
}

/// The guards whose static this thread is constructing with checking off,
/// innermost last (a constructor may initialise another static).
thread_local std::uint64_t *ConstructingUnder[kNested];
thread_local unsigned Constructing = 0;

/// After the guard's release or abort: checking on again if its acquire
/// turned it off.
void constructed(std::uint64_t *Guard) {
  if (Constructing && ConstructingUnder[Constructing - 1] == Guard) {
    --Constructing;
    Detector::enableChecking();
  }
}

} // namespace

extern "C" {

int pthread_once(pthread_once_t *Once, void (*Init)(void)) {
  using Fn = int(pthread_once_t *, void (*)(void));
  static Fn *Real;
  return onceUnchecked(nextSymbol(Real, "pthread_once"), Once, Init);
}

void call_once(once_flag *Once, void (*Init)(void)) {
  using Fn = void(once_flag *, void (*)(void));
  static Fn *Real;
  onceUnchecked(nextSymbol(Real, "call_once"), Once, Init);
}

// The Itanium C++ ABI's guard of a function-local static (a 64-bit word).
int __cxa_guard_acquire(std::uint64_t *Guard) {
  using Fn = int(std::uint64_t *);
  static Fn *Real;
  int MustConstruct = nextSymbol(Real, "__cxa_guard_acquire")(Guard);
  if (MustConstruct && Detector::follows() && Constructing < kNested) {
    Detector::disableChecking();
    ConstructingUnder[Constructing++] = Guard;
  }
  return MustConstruct;
}

void __cxa_guard_release(std::uint64_t *Guard) {
  using Fn = void(std::uint64_t *);
  static Fn *Real;
  constructed(Guard);
  nextSymbol(Real, "__cxa_guard_release")(Guard);
}

void __cxa_guard_abort(std::uint64_t *Guard) {
  using Fn = void(std::uint64_t *);
  static Fn *Real;
  constructed(Guard);
  nextSymbol(Real, "__cxa_guard_abort")(Guard);
}

} // extern "C"
