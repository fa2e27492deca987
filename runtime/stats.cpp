//===- stats.cpp - The weft-stats line ------------------------------------===//

#include "stats.h"

#include "config.h"
#include "fence.h"
#include "worker.h"

#include <cstdio>

namespace weft {

void collect_stats(weft_stats &Out) {
  Out = weft_stats{};
  Out.workers = nworkers_setting().get();
  Out.threads = worker_count();
  for (unsigned I = 0; I < Out.threads; ++I) {
    const WorkerStats &S = worker_at(I)->stats;
    Out.spawns += S.spawns.get();
    Out.steals += S.steals.get();
    Out.steal_attempts += S.steal_attempts.get();
    Out.parks += S.parks.get();
    Out.stacks += S.stacks.get();
    Out.sleeps += S.sleeps.get();
  }
}

void print_stats() {
  weft_stats Sum;
  collect_stats(Sum);
  // The program's own output comes first, even when stdout is a pipe whose
  // buffer would otherwise be flushed after this line.
  std::fflush(stdout);
  std::fprintf(stderr,
               "weft-stats: workers=%u threads=%u spawns=%llu steals=%llu "
               "steal_attempts=%llu parks=%llu stacks=%llu sleeps=%llu "
               "fences=%s\n",
               Sum.workers, Sum.threads, (unsigned long long)Sum.spawns,
               (unsigned long long)Sum.steals,
               (unsigned long long)Sum.steal_attempts,
               (unsigned long long)Sum.parks, (unsigned long long)Sum.stacks,
               (unsigned long long)Sum.sleeps,
               fences_asymmetric() ? "asymmetric" : "symmetric");
}

} // namespace weft
