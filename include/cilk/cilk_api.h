/*===- cilk/cilk_api.h - OpenCilk's and Cilk Plus's runtime API, by Weft ---===*\
 *
 * OpenCilk and Cilk Plus programs ask the runtime how many workers there
 * are and which one runs the caller, and Cilk Plus programs set the count:
 *
 *   #include <cilk/cilk_api.h>
 *   if (__cilkrts_set_param("nworkers", "4") != __CILKRTS_SET_PARAM_SUCCESS)
 *     ...;                                  // before the first spawn
 *   long partial[__cilkrts_get_nworkers()];
 *   partial[__cilkrts_get_worker_number()] += v;
 *
 * __cilkrts_get_nworkers() is the worker count P (what the program set, or
 * WEFT_NWORKERS, or CILK_NWORKERS, or the CPUs in the affinity mask).
 * __cilkrts_get_worker_number() is from 0 to P-1 on the thread that
 * started the pool and on the pool's threads, and 0 on a thread that has
 * not spawned yet, as in OpenCilk; <weft/api.h> says what another thread
 * that spawns gets.
 *
 * __cilkrts_set_param(param, value) knows one parameter, as Cilk Plus
 * documents it: "nworkers", a decimal from 0 to WEFT_MAX_NWORKERS, where 0
 * restores the default (the environment's count, or the CPUs'). It returns
 * __CILKRTS_SET_PARAM_SUCCESS; _LATE once the pool runs (the count is
 * fixed when the first spawn starts it); _XRANGE for a number out of
 * range, negative ones included; _INVALID for a null pointer or a value
 * that is not a number; _UNIMP for any other parameter ("force reduce"
 * too: Weft has no such mode).
 *
 * __cilkrts_init() starts the pool now, with the calling thread as worker
 * 0, rather than at the first spawn. __cilkrts_end_cilk() ends nothing:
 * Weft's pool, once started, runs until the program exits. Called before
 * the first spawn, as Cilk Plus programs do to change the count, it has
 * nothing to end, and a later __cilkrts_set_param("nworkers", ...) works.
 *
 * OpenCilk's: __cilkrts_is_initialized() says whether the pool has
 * started; __cilkrts_running_on_workers() whether the calling thread is a
 * worker (a pool thread, or one that has spawned). __cilkrts_atinit(f)
 * and __cilkrts_atexit(f) register f to run as the pool starts (on the
 * thread that starts it, before its first spawn runs) and as it shuts
 * down at exit (in reverse order); each returns 0, or -1 when 32 are
 * registered already or, for atinit, when the pool has started.
 *
 * Pedigrees and deterministic random numbers, OpenCilk's API: in a program
 * whose files are built with pedigrees (-fopencilk-enable-pedigrees, or
 * weft-clang's --weft-pedigrees), __cilkrts_get_pedigree() names the
 * calling strand by its place in the serial order (leaf first: `rank`,
 * then `parent` up to a node whose parent is NULL), and
 * __cilkrts_get_dprand() draws the strand's next DotMix number; both are
 * the same at every worker count and in every run. A draw and
 * __cilkrts_bump_worker_rank() advance the strand's rank.
 * __cilkrts_dprand_set_seed(s) reseeds (OpenCilk's default seed is
 * WEFT_DPRNG_DEFAULT_SEED) and __cilkrts_init_dprng() remakes the table
 * from the seed; call them from serial code. docs/pedigrees.md has the
 * rules.
 *
 * Without the Weft plugin these are the serial elision's stand-ins (one
 * worker, number 0; __cilkrts_set_param checks its arguments as the
 * runtime does, then has nothing to set; no runtime starts, so no
 * callback runs), unless WEFT_LINKS_RUNTIME is defined (<weft/api.h>).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILK_API_H
#define WEFT_CILK_CILK_API_H

#include <weft/api.h>
#include <weft/pedigree.h>

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* __cilkrts_set_param() results: Cilk Plus's names and values. */
enum {
  __CILKRTS_SET_PARAM_SUCCESS = 0, /* the parameter is set */
  __CILKRTS_SET_PARAM_UNIMP = 1,   /* no such parameter in Weft */
  __CILKRTS_SET_PARAM_XRANGE = 2,  /* the value is out of range */
  __CILKRTS_SET_PARAM_INVALID = 3, /* a null pointer, or not a number */
  __CILKRTS_SET_PARAM_LATE = 4     /* too late: the pool runs */
};

/* Reads the value of "nworkers" into *n (0: the default), or says what is
 * wrong with it. Shared by the runtime and the serial elision. */
static inline int __weft_nworkers_param(const char *value, unsigned *n) {
  const char *digit = value;
  unsigned long v = 0;
  if (!value)
    return __CILKRTS_SET_PARAM_INVALID;
  if (*digit == '-' || *digit == '+')
    ++digit;
  if (*digit < '0' || *digit > '9')
    return __CILKRTS_SET_PARAM_INVALID;
  for (; *digit >= '0' && *digit <= '9'; ++digit)
    if (v <= WEFT_MAX_NWORKERS)
      v = v * 10 + (unsigned long)(*digit - '0');
  if (*digit != '\0')
    return __CILKRTS_SET_PARAM_INVALID;
  if ((*value == '-' && v != 0) || v > WEFT_MAX_NWORKERS)
    return __CILKRTS_SET_PARAM_XRANGE;
  *n = (unsigned)v;
  return __CILKRTS_SET_PARAM_SUCCESS;
}

#if defined(__weft__) || defined(WEFT_LINKS_RUNTIME)

/* Pure: it writes nothing the program sees and answers from memory alone,
 * so the compiler may drop a call whose answer goes unused and ask once
 * where nothing between could set the count, as the serial elision's
 * constant lets it (parlaylib asks in every loop). */
__attribute__((pure)) unsigned __cilkrts_get_nworkers(void);
unsigned __cilkrts_get_worker_number(void);
int __cilkrts_set_param(const char *param, const char *value);
void __cilkrts_init(void);
void __cilkrts_end_cilk(void);
int __cilkrts_is_initialized(void);
int __cilkrts_running_on_workers(void);
int __cilkrts_atinit(void (*callback)(void));
int __cilkrts_atexit(void (*callback)(void));

__cilkrts_pedigree __cilkrts_get_pedigree(void);
void __cilkrts_bump_worker_rank(void);
void __cilkrts_dprand_set_seed(uint64_t seed);
void __cilkrts_init_dprng(void);
uint64_t __cilkrts_get_dprand(void);

#else

static inline unsigned __cilkrts_get_nworkers(void) { return 1; }
static inline unsigned __cilkrts_get_worker_number(void) { return 0; }
static inline int __cilkrts_set_param(const char *param, const char *value) {
  unsigned n;
  if (!param || !value)
    return __CILKRTS_SET_PARAM_INVALID;
  if (strcmp(param, "nworkers") != 0)
    return __CILKRTS_SET_PARAM_UNIMP;
  return __weft_nworkers_param(value, &n);
}
static inline void __cilkrts_init(void) {}
static inline void __cilkrts_end_cilk(void) {}
static inline int __cilkrts_is_initialized(void) { return 0; }
static inline int __cilkrts_running_on_workers(void) { return 0; }
static inline int __cilkrts_atinit(void (*callback)(void)) {
  (void)callback;
  return 0;
}
static inline int __cilkrts_atexit(void (*callback)(void)) {
  (void)callback;
  return 0;
}

/* The serial elision spawns nothing: one strand, [0, rank], as the runtime
 * would number a program without spawns. Weak, so that every file of the
 * program shares one rank and one seed. */
__attribute__((weak)) __cilkrts_pedigree __weft_serial_root = {0, 0};
__attribute__((weak)) uint64_t __weft_serial_rank;
__attribute__((weak)) uint64_t __weft_serial_seed = WEFT_DPRNG_DEFAULT_SEED;
static inline __cilkrts_pedigree __cilkrts_get_pedigree(void) {
  __cilkrts_pedigree leaf = {__weft_serial_rank, &__weft_serial_root};
  return leaf;
}
static inline void __cilkrts_bump_worker_rank(void) { ++__weft_serial_rank; }
static inline void __cilkrts_init_dprng(void) {}
static inline void __cilkrts_dprand_set_seed(uint64_t seed) {
  __weft_serial_seed = seed;
}
static inline uint64_t __cilkrts_get_dprand(void) {
  uint64_t seed = __weft_serial_seed;
  uint64_t sum = __weft_dprng_add_mod_p(__weft_dprng_offset(seed),
                                        __weft_dprng_table_entry(seed, 0));
  ++__weft_serial_rank;
  sum = __weft_dprng_add_mod_p(
      sum, __weft_dprng_mul_mod_p(__weft_serial_rank % WEFT_DPRNG_PRIME + 1,
                                  __weft_dprng_table_entry(seed, 1)));
  return __weft_dprng_mix_mod_p(sum);
}

#endif

#ifdef __cplusplus
}
#endif

#endif /* WEFT_CILK_CILK_API_H */
