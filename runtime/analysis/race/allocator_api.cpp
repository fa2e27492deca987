//===- allocator_api.cpp - <weft/race.h>: a custom allocator's blocks -----===//
//
// A pool allocator recycles blocks between strands without glibc seeing it,
// so the detector learns of its blocks from these two calls, which a
// library makes itself (<weft/race.h>) or which the plugin puts into the
// entry points of the allocators it knows (plugin/analysis/RaceAllocators.cpp):
//
//   __weft_race_alloc(p, n)   a new block: its history goes, unchecked
//   __weft_race_free(p, n)    given back: checked as a free (a write, by
//                             the code that called this), then forgotten
//
// Exactly what the race runtime's free does for glibc's blocks
// (interpose.cpp). A free made while checking is off (a pool allocator's
// entry nested in another's) is not checked, only forgotten
// (Detector::freed()).
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"
#include "analysis/race/race_abi.h"

#include <cstddef>
#include <cstdint>

using weft::race::detector;
using weft::race::Detector;

extern "C" {

void __weft_race_alloc(void *P, std::size_t N) {
  if (!P || N == 0 || !Detector::follows())
    return;
  auto Begin = reinterpret_cast<std::uintptr_t>(P);
  detector().forget(Begin, Begin + N);
}

void __weft_race_free(void *P, std::size_t N) {
  if (!P || N == 0 || !Detector::follows())
    return;
  auto Begin = reinterpret_cast<std::uintptr_t>(P);
  detector().freed(Begin, Begin + N,
                   reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

} // extern "C"
