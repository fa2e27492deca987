//===- cilksan_api.cpp - <cilk/cilksan.h>'s calls, in a race-mode build ---===//
//
// OpenCilk programs turn the race detector's checking off around code they
// know to be safe, and ask whether it is on:
//
//   __cilksan_disable_checking();
//   shared_counter++;                  // not checked, not recorded
//   __cilksan_enable_checking();
//
// The calls nest: checking is on again when each disable has had its
// enable. While it is off, the followed thread's accesses are neither
// checked nor recorded, while its procedures, call stack and the lifetimes
// of its memory are still followed (Detector::follows()). A program's own
// thread, which the detector does not follow, is unaffected. In a normal
// build the header's calls are inline no-ops.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"

using weft::race::Detector;

namespace weft::race {

void Detector::disableChecking() {
  if (!follows())
    return;
  if (DisabledDepth++ == 0)
    ThreadRole = Role::Paused;
}

void Detector::enableChecking() {
  if (!follows() || DisabledDepth == 0)
    return; // an enable without its disable changes nothing
  if (--DisabledDepth == 0)
    ThreadRole = Role::Owner;
}

} // namespace weft::race

extern "C" {

void __cilksan_disable_checking(void) { Detector::disableChecking(); }
void __cilksan_enable_checking(void) { Detector::enableChecking(); }
bool __cilksan_is_checking_enabled(void) {
  return !Detector::follows() || Detector::checkingEnabled();
}

} // extern "C"
