//===- stats_api.cpp - weft_get_stats(), in an archive member of its own --===//
//
// A spawn counter costs every spawn a load and a store, about 2% of fib's
// time (docs/benchmarks.md), so the runtime counts spawns only where the
// count can be read: under WEFT_STATS=1, under the hang watch, and in a
// program that calls weft_get_stats(). The last is known when the program
// is linked: this file is the only one that defines weft_get_stats(), so
// the linker takes it from libweft.a into exactly those programs, and with
// it __weft_stats_api_linked, which stats.cpp looks for through a weak
// reference when the pool starts. Counting then runs from the first spawn,
// and the totals are, as weft/api.h says, since the program started.
//
//===----------------------------------------------------------------------===//

#include "stats.h"

#include "weft/api.h"

extern "C" {

void __weft_stats_api_linked(void) {}

void weft_get_stats(struct weft_stats *Out) { weft::collect_stats(*Out); }

} // extern "C"
