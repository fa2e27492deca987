//===- api.cpp - The program's view of the runtime (weft/api.h, cilk_api.h) ===//
//
// The worker count and number for programs that ask (weft/api.h; the
// statistics are stats_api.cpp's), under Weft's names and OpenCilk's, and
// Cilk Plus's calls that set the count and start the pool, and OpenCilk's
// that ask whether it started (cilk/cilk_api.h; its callbacks are
// callbacks.cpp's). None of this is on a spawn's path.
//
//===----------------------------------------------------------------------===//

#include "config.h"
#include "stats.h"
#include "worker.h"

#include "cilk/cilk_api.h"
#include "weft/api.h"

#include <cstring>

using namespace weft;

/// As Cilk Plus: too late once the pool runs, whatever the value; then the
/// value's own problems.
int weft::set_cilk_param(WorkerCount &Count, const char *Param,
                         const char *Value, unsigned Default) {
  if (!Param || !Value)
    return __CILKRTS_SET_PARAM_INVALID;
  if (std::strcmp(Param, "nworkers") != 0)
    return __CILKRTS_SET_PARAM_UNIMP;
  if (Count.fixed())
    return __CILKRTS_SET_PARAM_LATE;
  unsigned N = 0;
  if (int Problem = __weft_nworkers_param(Value, &N))
    return Problem;
  switch (Count.set(N ? N : Default)) {
  case WEFT_OK:
    return __CILKRTS_SET_PARAM_SUCCESS;
  case WEFT_ESTARTED: // the pool started since the check above
    return __CILKRTS_SET_PARAM_LATE;
  default:
    return __CILKRTS_SET_PARAM_XRANGE;
  }
}

extern "C" {

int weft_set_nworkers(unsigned N) { return nworkers_setting().set(N); }

unsigned weft_get_nworkers(void) { return nworkers_setting().get(); }

/// The registry slot: the pool's starter and threads hold 0 to P-1
/// (worker.cpp). A thread that never spawned answers 0, as in OpenCilk.
unsigned weft_get_worker_number(void) {
  Worker *W = current_worker();
  return W ? W->id : 0;
}

unsigned __cilkrts_get_nworkers(void) { return weft_get_nworkers(); }

unsigned __cilkrts_get_worker_number(void) { return weft_get_worker_number(); }

int __cilkrts_set_param(const char *Param, const char *Value) {
  return set_cilk_param(nworkers_setting(), Param, Value, config().nworkers);
}

/// Starts the pool now, as the first spawn would, the caller its worker 0.
void __cilkrts_init(void) { current_or_new_worker(); }

/// The pool, once started, runs until exit: nothing to end.
void __cilkrts_end_cilk(void) {}

/// Whether the pool has started (the first spawn, or __cilkrts_init()).
int __cilkrts_is_initialized(void) { return worker_count() != 0; }

/// Whether the calling thread is one of Weft's workers: a pool thread, or
/// a thread that has spawned.
int __cilkrts_running_on_workers(void) { return current_worker() != nullptr; }

} // extern "C"
