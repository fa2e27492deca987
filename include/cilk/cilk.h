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
 * (Cilk Plus's), _Cilk_scope and _Hyperobject(identity, reduce) (OpenCilk's),
 * mean the same. With the plugin they need no header, as with OpenCilk's
 * compiler: the plugin predefines them, with __cilk (WeftPlugin.cpp), and
 * this header spells the cilk_ names with them, as OpenCilk's does. Without
 * it they are the serial elision's.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILK_H
#define WEFT_CILK_CILK_H

#include <weft/weft.h>

#if !defined(__weft__) /* weft.h's serial elision */
#define _Cilk_spawn weft_spawn
#define _Cilk_sync weft_sync
#define _Cilk_for weft_for
#define _Cilk_scope weft_scope
#define _Hyperobject(identity, reduce)
#endif

#define cilk_spawn _Cilk_spawn
#define cilk_sync _Cilk_sync
#define cilk_for _Cilk_for
#define cilk_scope _Cilk_scope

/* OpenCilk 2's reducer type qualifier, `T cilk_reducer(identity, reduce)`:
 *
 *   void zero(void *v) { *(long *)v = 0; }
 *   void plus(void *l, void *r) { *(long *)l += *(long *)r; }
 *   long cilk_reducer(zero, plus) sum = 0;
 *   cilk_for (long i = 0; i < n; ++i) sum += i;   // each strand's own view
 *
 * With the plugin, _Hyperobject is a type attribute that the plugin's front
 * end finds on the declaration, and each use of the variable (or `*p`
 * through a `T cilk_reducer(I, R) *p`) becomes the calling strand's view
 * (docs/reducers.md). Without it, the qualifier vanishes (the serial
 * elision). */
#define cilk_reducer(identity, reduce) _Hyperobject(identity, reduce)

#endif /* WEFT_CILK_CILK_H */
