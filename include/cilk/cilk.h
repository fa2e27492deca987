/*===- cilk/cilk.h - OpenCilk-compatible keywords for Weft -----------------===*\
 *
 * Programs written for OpenCilk or Cilk Plus include this header and use
 * cilk_spawn, cilk_sync and cilk_for unchanged (`#pragma cilk grainsize N`
 * before a cilk_for sets its grain). Without the Weft plugin they compile as
 * their serial elision.
 *
 * cilk_scope { ... } waits at the block's end for the children spawned in
 * it, as in OpenCilk.
 *
 * The keywords' underlying spellings, _Cilk_spawn, _Cilk_sync, _Cilk_for
 * (Cilk Plus's) and _Cilk_scope (OpenCilk's), mean the same; Clang does not
 * know them as keywords, so a program that uses them includes this header.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILK_H
#define WEFT_CILK_CILK_H

#include <weft/weft.h>

#define cilk_spawn weft_spawn
#define cilk_sync weft_sync
#define cilk_for weft_for
#define cilk_scope weft_scope

#define _Cilk_spawn weft_spawn
#define _Cilk_sync weft_sync
#define _Cilk_for weft_for
#define _Cilk_scope weft_scope

/* OpenCilk 2's reducer type qualifier, `T cilk_reducer(identity, reduce)`:
 *
 *   void zero(void *v) { *(long *)v = 0; }
 *   void plus(void *l, void *r) { *(long *)l += *(long *)r; }
 *   long cilk_reducer(zero, plus) sum = 0;
 *   cilk_for (long i = 0; i < n; ++i) sum += i;   // each strand's own view
 *
 * With the plugin it is a type attribute that the plugin's front end finds
 * on the declaration, and each use of the variable (or `*p` through a
 * `T cilk_reducer(I, R) *p`) becomes the calling strand's view
 * (docs/reducers.md). Without it, the qualifier vanishes (the serial
 * elision). */
#if defined(__weft__)
/* In C++ the conversion resolves a template-id such as zero<long>, which
 * the attribute would otherwise reject as an overload set, and a function
 * of another type is an error there; in C the plugin checks the type. */
#ifdef __cplusplus
#define __weft_reducer_fn(f, ...) static_cast<void (*)(__VA_ARGS__)>(f)
#else
#define __weft_reducer_fn(f, ...) f
#endif
#define cilk_reducer(identity, reduce)                                       \
  [[clang::annotate_type("weft_reducer",                                     \
                         __weft_reducer_fn(identity, void *),                \
                         __weft_reducer_fn(reduce, void *, void *))]]
#else
#define cilk_reducer(identity, reduce)
#endif

#endif /* WEFT_CILK_CILK_H */
