//===- hooks.cpp - The race runtime's start, end and Weft hooks -----------===//
//
// A program built with `weft-clang++ --weft-race` runs serially on one
// worker, in the order of its serial elision: a constructor that runs
// before the program's own pins the worker count to one, as workspan mode
// does. The pass calls the five __weft_race_* hooks where the series-
// parallel structure changes (detector.cpp maps them to SP-bags), and
// every module references __weft_race_anchor so that this archive member,
// and with it the whole race runtime, is linked even into a program that
// never spawns.
//
// The end. The report must be the last thing on stderr and its count must
// decide the exit status, even for a program that returns 0 from main.
// The constructor registers the report with atexit first, before any of
// the program's constructors can register theirs, so it runs last; when it
// found races it flushes stdio and ends the process with _exit and the
// status (66, or WEFT_RACE_EXITCODE). With no race it returns, and the
// process ends with the program's own status.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"
#include "analysis/race/race_abi.h"
#include "analysis/race/strand_views.h"

#include "config.h"

#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace weft::race {
namespace {

/// The exit status of a run that found races, unless WEFT_RACE_EXITCODE
/// says otherwise.
constexpr int kRaceExitStatus = 66;

int exitStatus() {
  const char *S = std::getenv("WEFT_RACE_EXITCODE");
  if (!S || !*S)
    return kRaceExitStatus;
  char *End = nullptr;
  long V = std::strtol(S, &End, 10);
  if (*End != '\0' || V < 0 || V > 255) {
    // The runtime's own message: what fprintf reads is not the program's
    // (stdio_api.cpp would check it).
    Detector::disableChecking();
    std::fprintf(stderr, "weft-race: WEFT_RACE_EXITCODE=%s is not a status "
                         "(0 to 255); using %d\n", S, kRaceExitStatus);
    Detector::enableChecking();
    return kRaceExitStatus;
  }
  return int(V);
}

void reportAtExit() {
  // Read first: a complaint about the setting must not follow the count.
  int Status = exitStatus();
  std::size_t Found = printReport(detector());
  if (Found == 0)
    return;
  std::fflush(nullptr);
  _exit(Status);
}

/// A real run has worker threads; the race run has none, and glibc then
/// tells libstdc++ that the process is single-threaded
/// (__libc_single_threaded), which makes shared_ptr's reference counts,
/// and every other count libstdc++ keeps the same way, plain adds instead
/// of atomic ones: two parallel strands copying one shared_ptr would be
/// reported as racing on its count, which on a real run they update
/// atomically. One thread that does nothing, made before the program's
/// own code runs, makes glibc say what a real run's would (it never goes
/// back).
void becomeMultiThreaded() {
  pthread_t Thread;
  if (pthread_create(
          &Thread, nullptr, [](void *) -> void * { return nullptr; },
          nullptr) == 0)
    pthread_join(Thread, nullptr);
}

struct Start {
  Start() {
    new (DetectorStorage) Detector();
    std::atexit(reportAtExit);
    nworkers_setting().pinToOne();
    becomeMultiThreaded();
  }
};
Start Starter __attribute__((init_priority(101)));

} // namespace

alignas(Detector) unsigned char DetectorStorage[sizeof(Detector)];

/// free and realloc (interpose.cpp) must replace glibc's even in a program
/// that calls neither itself (its libraries do): this member, which the
/// anchor pulls in, pulls theirs in too.
[[maybe_unused]] __attribute__((used)) void (*const KeepFree)(void *) = &free;

} // namespace weft::race

using weft::race::detector;
using weft::race::Detector;
using weft::race::strandViews;

extern "C" {

void __weft_race_anchor(void) {}

// The hooks the pass emits in race mode (plugin/analysis/WorkSpan.h says
// where). A thread other than the followed one is not checked.

std::uint32_t __weft_race_enter(void) {
  if (!Detector::follows())
    return 0;
  std::uint32_t Record = detector().enter();
  strandViews().entered(Record);
  return Record;
}

void __weft_race_spawn(std::uint32_t Record) {
  if (Detector::follows())
    detector().spawn(Record);
}

void __weft_race_continue(std::uint32_t Record) {
  if (!Detector::follows())
    return;
  detector().resume(
      Record, reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
  strandViews().continued(Record);
}

// The views fold after the detector's sync, so that what the reduce
// callbacks read and write follows every strand that used the views.
void __weft_race_sync(std::uint32_t Record) {
  if (!Detector::follows())
    return;
  detector().sync(Record);
  strandViews().synced(Record);
}

void __weft_race_exit(std::uint32_t Record) {
  if (!Detector::follows())
    return;
  if (strandViews().hasStrands(Record)) // the implicit sync, then the end
    detector().sync(Record);
  strandViews().exited(Record);
  detector().exit(
      Record, reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
}

// A stack slot's life ended where this is called (RaceDeadSlots.cpp): the
// end is an access that races with a logically parallel one (a child still
// writing a VLA of the loop body the continuation leaves), and the slot's
// history goes, so that the next variable there starts fresh.
void __weft_race_dead_slot(void *Slot, std::uint64_t Bytes) {
  if (!Slot || !Detector::follows())
    return;
  auto Begin = reinterpret_cast<std::uintptr_t>(Slot);
  detector().freed(Begin, Begin + Bytes,
                   reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)),
                   Detector::Release::ScopeEnd);
}

// The runtime's reducers (views.cpp, hyper.cpp) announce each reducer
// while it lives: its own storage is then not checked (in a serial run the
// leftmost strands use it, each its own part of the work), and the views
// of the other strands are the race runtime's (strand_views.h).
void __weft_race_reducer(__weft_reducer *R, int Live) {
  if (!R || !Detector::follows())
    return;
  auto Begin = reinterpret_cast<std::uintptr_t>(R->leftmost);
  if (Live) {
    detector().ignore(Begin, Begin + R->view_size, true);
    strandViews().registered(R);
  } else {
    strandViews().unregistered(R);
    detector().ignore(Begin, Begin + R->view_size, false);
  }
}

void *__weft_race_view(__weft_reducer *R) {
  return Detector::follows() ? strandViews().view(R) : R->leftmost;
}

} // extern "C"
