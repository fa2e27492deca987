/*===- cilk/cilk_api.h - OpenCilk's runtime queries, answered by Weft ------===*\
 *
 * OpenCilk programs ask the runtime how many workers there are and which
 * one runs the caller:
 *
 *   #include <cilk/cilk_api.h>
 *   long partial[__cilkrts_get_nworkers()];
 *   partial[__cilkrts_get_worker_number()] += v;
 *
 * __cilkrts_get_nworkers() is the worker count P (WEFT_NWORKERS, the CPUs
 * in the affinity mask, or what the program set with weft_set_nworkers()
 * before its first spawn). __cilkrts_get_worker_number() is from 0 to P-1
 * on the thread that started the pool and on the pool's threads, and 0 on
 * a thread that has not spawned yet, as in OpenCilk; <weft/api.h> says
 * what another thread that spawns gets.
 *
 * Without the Weft plugin these are the serial elision's answers (one
 * worker, number 0), unless WEFT_LINKS_RUNTIME is defined (<weft/api.h>).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILK_API_H
#define WEFT_CILK_CILK_API_H

#include <weft/api.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__weft__) || defined(WEFT_LINKS_RUNTIME)

unsigned __cilkrts_get_nworkers(void);
unsigned __cilkrts_get_worker_number(void);

#else

static inline unsigned __cilkrts_get_nworkers(void) { return 1; }
static inline unsigned __cilkrts_get_worker_number(void) { return 0; }

#endif

#ifdef __cplusplus
}
#endif

#endif /* WEFT_CILK_CILK_API_H */
