//===- api.cpp - The program's view of the runtime (weft/api.h, cilk_api.h) ===//
//
// The worker count and number, and the statistics, for programs that ask
// (weft/api.h), under Weft's names and OpenCilk's. None of this is on a
// spawn's path.
//
//===----------------------------------------------------------------------===//

#include "config.h"
#include "stats.h"
#include "worker.h"

#include "weft/api.h"

using namespace weft;

extern "C" {

int weft_set_nworkers(unsigned N) { return nworkers_setting().set(N); }

unsigned weft_get_nworkers(void) { return nworkers_setting().get(); }

/// The registry slot: the pool's starter and threads hold 0 to P-1
/// (worker.cpp). A thread that never spawned answers 0, as in OpenCilk.
unsigned weft_get_worker_number(void) {
  Worker *W = current_worker();
  return W ? W->id : 0;
}

void weft_get_stats(struct weft_stats *Out) { collect_stats(*Out); }

unsigned __cilkrts_get_nworkers(void) { return weft_get_nworkers(); }

unsigned __cilkrts_get_worker_number(void) { return weft_get_worker_number(); }

} // extern "C"
