//===- cilksan_api.cpp - <cilk/cilksan.h>'s calls, in a race-mode build ---===//
//
// OpenCilk programs tell the race detector about locks it cannot see
// (__cilksan_acquire_lock(m), __cilksan_release_lock(m); an atomic section
// is one lock of its own), and turn its checking off around code they know
// to be safe, and ask whether it is on:
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

namespace {

/// The one lock that <cilk/cilksan.h>'s atomic sections hold: two of them
/// never race with each other.
char AtomicSection;

void acquire(const void *Lock) {
  if (Detector::follows())
    weft::race::detector().acquire(reinterpret_cast<std::uintptr_t>(Lock));
}
void release(const void *Lock) {
  if (Detector::follows())
    weft::race::detector().release(reinterpret_cast<std::uintptr_t>(Lock));
}

} // namespace

extern "C" {

void __cilksan_acquire_lock(const void *Mutex) { acquire(Mutex); }
void __cilksan_release_lock(const void *Mutex) { release(Mutex); }
void __cilksan_begin_atomic(void) { acquire(&AtomicSection); }
void __cilksan_end_atomic(void) { release(&AtomicSection); }
// A lock is its address; nothing to register.
void __cilksan_register_lock_explicit(const void *) {}
void __cilksan_unregister_lock_explicit(const void *) {}

void __cilksan_disable_checking(void) { Detector::disableChecking(); }
void __cilksan_enable_checking(void) { Detector::enableChecking(); }
bool __cilksan_is_checking_enabled(void) {
  return !Detector::follows() || Detector::checkingEnabled();
}

} // extern "C"
