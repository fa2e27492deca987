//===- parallel_for.cpp - Running a parallel loop's iterations ------------===//
//
// The IR pass outlines each parallel loop into a chunk function that runs
// the iterations [lo, hi) and calls __weft_parallel_for
// (plugin/lower/parallel_for/ParallelFor.cpp). Here [0, n) is split
// recursively, the lower half spawned and the upper half kept, until a
// range is no longer than the grain; then the chunk runs it:
//
//   split(lo, hi):  while (hi - lo > grain) {
//                     mid = lo + (hi - lo) / 2;
//                     cilk_spawn split(lo, mid);    // a thief takes the
//                     lo = mid;                     // continuation: the
//                   }                               // upper halves
//                   chunk(lo, hi);
//                   cilk_sync;
//
// so a loop costs about n / grain spawns, not n, and a thief steals the
// largest piece left, as for any divide and conquer in Cilk. Spawning the
// lower half keeps the serial order of this recursion the loop's own, as
// OpenCilk does: iterations run in order on one worker, and reducers
// (docs/reducers.md) merge their views in the loop's order. Steals are
// continuation steals like every Weft spawn: this file is compiled with
// the Weft plugin itself (runtime/CMakeLists.txt).
//
// The default grain is OpenCilk's: min(2048, ceil(n / (8 P))) for P
// workers, enough pieces to balance the load, few enough that the spawns
// cost nothing next to the iterations.
//
// The runtime holds a second copy of the splitter, compiled in workspan
// mode as __weft_parallel_for_workspan, which loops call in that mode: its
// spawns report to the work/span analysis (docs/workspan.md). Its grain is
// the one the loop would have on the workers the program asked for, not on
// the one worker the analysis runs it on. A third copy, compiled in race
// mode as __weft_parallel_for_race, serves programs built for the race
// detector in the same way: its spawns tell the detector that the pieces
// are logically parallel, and its pieces are single iterations.
//
//===----------------------------------------------------------------------===//

#include "config.h"

#include <cilk/cilk.h>
#include <weft/frame_abi.h>

#include <algorithm>
#include <cstdint>

namespace {

using Chunk = void (*)(void *, std::uint64_t, std::uint64_t);

void split(Chunk Run, void *Ctx, std::uint64_t Lo, std::uint64_t Hi,
           std::uint64_t Grain) {
  while (Hi - Lo > Grain) {
    std::uint64_t Mid = Lo + (Hi - Lo) / 2;
    cilk_spawn split(Run, Ctx, Lo, Mid, Grain);
    Lo = Mid;
  }
  Run(Ctx, Lo, Hi);
  cilk_sync;
}

} // namespace

#if defined(__weft_workspan__)
#define WEFT_PARALLEL_FOR_ENTRY __weft_parallel_for_workspan
#elif defined(__weft_race__)
#define WEFT_PARALLEL_FOR_ENTRY __weft_parallel_for_race
#else
#define WEFT_PARALLEL_FOR_ENTRY __weft_parallel_for
#endif

extern "C" {

#if defined(__weft_workspan__) || defined(__weft_race__)
std::uint64_t __weft_pfor_grain(std::uint64_t N); // the normal copy's
#else
/// The default grain for \p N iterations: OpenCilk's (see the file header).
std::uint64_t __weft_pfor_grain(std::uint64_t N) {
  constexpr std::uint64_t kPiecesPerWorker = 8;
  constexpr std::uint64_t kLargestDefaultGrain = 2048;
  // The count weft_set_nworkers may have changed, as the pool will have it
  // (or would have it, when the work/span analysis runs on one worker).
  std::uint64_t Pieces =
      kPiecesPerWorker * std::uint64_t(weft::nworkers_setting().planned());
  return std::clamp<std::uint64_t>((N + Pieces - 1) / Pieces, 1,
                                   kLargestDefaultGrain);
}
#endif

/// Runs \p Run over [0, \p N) in pieces of at most \p Grain iterations
/// (the default if \p Grain < 1), in parallel; returns when all are done.
void WEFT_PARALLEL_FOR_ENTRY(std::uint64_t N, std::int64_t Grain, Chunk Run,
                             void *Ctx) {
  if (N == 0)
    return;
#if defined(__weft_race__)
  // Every iteration is logically parallel with every other whatever the
  // grain, and the race detector sees parallelism only between strands:
  // one iteration per piece, so that a race between two iterations that
  // a grain would have put in one piece is found too.
  (void)Grain;
  std::uint64_t G = 1;
#else
  std::uint64_t G = Grain > 0 ? std::uint64_t(Grain) : __weft_pfor_grain(N);
#endif
  if (N <= G) {
    Run(Ctx, 0, N); // one piece: nothing to spawn
    return;
  }
  split(Run, Ctx, 0, N, G);
}

} // extern "C"
