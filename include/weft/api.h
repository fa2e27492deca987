/*===- weft/api.h - The worker count and statistics, from the program ------===*\
 *
 *   #include <weft/api.h>
 *   int main(int argc, char **argv) {
 *     if (argc > 1 && weft_set_nworkers((unsigned)atoi(argv[1])) != WEFT_OK)
 *       return 2;                      // before the first spawn
 *     run();
 *     struct weft_stats s;
 *     weft_get_stats(&s);
 *     printf("%llu steals\n", (unsigned long long)s.steals);
 *   }
 *
 * The worker count is fixed when the first spawn starts the pool of worker
 * threads: weft_set_nworkers() overrides WEFT_NWORKERS until then, and
 * fails afterwards. The statistics are the counters that WEFT_STATS=1
 * prints at exit, totals since the program started; read while workers
 * run, each counter may lag its true value by a few events. Spawns are
 * counted only in a program that can read the count: calling
 * weft_get_stats() anywhere in it is enough.
 *
 * Worker numbers run from 0 to weft_get_nworkers() - 1: 0 is the thread
 * that started the pool (usually main), 1 to P-1 the pool's threads. A
 * thread that has not spawned yet gets 0, as in OpenCilk. Another thread
 * that spawns while the pool runs works as an extra worker and gets a
 * number of its own, P or more: code that indexes per-worker arrays must
 * enter parallel code from one thread at a time (OpenCilk allows no
 * other). The number may change across a spawn, a sync, or a call to a
 * spawning function: the continuation may run on another worker.
 *
 * Compiled without the Weft plugin, these are inline stand-ins for the
 * serial elision: one worker, number 0, zero counters. A file compiled
 * without the plugin for a program that links Weft's runtime gets the
 * runtime's answers by defining WEFT_LINKS_RUNTIME.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_API_H
#define WEFT_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* weft_set_nworkers() results. */
#define WEFT_OK 0
#define WEFT_EINVAL 1   /* n is 0 or more than WEFT_MAX_NWORKERS */
#define WEFT_ESTARTED 2 /* the pool has started: the count is fixed */

#define WEFT_MAX_NWORKERS 256u

struct weft_stats {
  unsigned workers;        /* the worker count P */
  unsigned threads;        /* threads that have run Weft work so far */
  uint64_t spawns;         /* continuations offered to thieves */
  uint64_t steals;         /* continuations stolen */
  uint64_t steal_attempts; /* looks into a victim's deque */
  uint64_t parks;          /* callers' stacks set aside after a steal */
  uint64_t stacks;         /* fiber stacks created */
  uint64_t sleeps;         /* times an idle worker went to sleep */
  /* Added later, so at the end; the runtime is linked statically, so a
     program and the runtime it links always agree on the layout. */
  uint64_t peak_frames;    /* most frames on one worker's deque at once */
  uint64_t peak_stacks;    /* most fiber stacks in use at once */
  uint64_t peak_parked;    /* most stacks parked behind stolen frames at once */
  uint64_t max_stacks;     /* the bound on fiber stacks in use (WEFT_MAX_STACKS) */
  uint64_t peak_mapped;    /* most fiber stacks mapped at once, idle ones too */
  uint64_t throttled;      /* times a thief waited for that bound */
  uint64_t membarriers;    /* process-wide barriers issued: by thieves
                              that found an owner's pops unfenced and
                              could not wait, and by workers going to
                              sleep (WEFT_FENCES) */
  uint64_t fence_requests; /* thieves' requests for fenced pops */
  uint64_t fenced_switches;   /* deques switched to fenced pops */
  uint64_t unfenced_switches; /* and back, once thieves stopped coming */
};

#if defined(__weft__) || defined(WEFT_LINKS_RUNTIME)

int weft_set_nworkers(unsigned n);
/* Pure, as __cilkrts_get_nworkers (cilk/cilk_api.h). */
__attribute__((pure)) unsigned weft_get_nworkers(void);
unsigned weft_get_worker_number(void);
void weft_get_stats(struct weft_stats *out);

#else

static inline int weft_set_nworkers(unsigned n) {
  return n >= 1 && n <= WEFT_MAX_NWORKERS ? WEFT_OK : WEFT_EINVAL;
}
static inline unsigned weft_get_nworkers(void) { return 1; }
static inline unsigned weft_get_worker_number(void) { return 0; }
static inline void weft_get_stats(struct weft_stats *out) {
  struct weft_stats none = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  *out = none;
}

#endif

#ifdef __cplusplus
}
#endif

#endif /* WEFT_API_H */
