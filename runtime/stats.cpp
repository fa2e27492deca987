//===- stats.cpp - The weft-stats line ------------------------------------===//

#include "stats.h"

#include "config.h"
#include "fence.h"
#include "worker.h"

#include <cstdio>

namespace weft {

void print_stats() {
  WorkerStats Sum;
  unsigned N = worker_count();
  for (unsigned I = 0; I < N; ++I) {
    const WorkerStats &S = worker_at(I)->stats;
    Sum.spawns.add(S.spawns.get());
    Sum.steals.add(S.steals.get());
    Sum.steal_attempts.add(S.steal_attempts.get());
    Sum.parks.add(S.parks.get());
    Sum.stacks.add(S.stacks.get());
    Sum.sleeps.add(S.sleeps.get());
  }
  // The program's own output comes first, even when stdout is a pipe whose
  // buffer would otherwise be flushed after this line.
  std::fflush(stdout);
  std::fprintf(stderr,
               "weft-stats: workers=%u threads=%u spawns=%llu steals=%llu "
               "steal_attempts=%llu parks=%llu stacks=%llu sleeps=%llu "
               "fences=%s\n",
               config().nworkers, N, (unsigned long long)Sum.spawns.get(),
               (unsigned long long)Sum.steals.get(),
               (unsigned long long)Sum.steal_attempts.get(),
               (unsigned long long)Sum.parks.get(),
               (unsigned long long)Sum.stacks.get(),
               (unsigned long long)Sum.sleeps.get(),
               fences_asymmetric() ? "asymmetric" : "symmetric");
}

} // namespace weft
