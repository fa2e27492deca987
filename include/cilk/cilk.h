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

/* OpenCilk 2's reducer type qualifier, `T cilk_reducer(identity, reduce)`,
 * needs compiler support that Weft does not have. With the plugin, each
 * declaration that uses it is an error naming the replacements; without it,
 * the qualifier vanishes (the serial elision). */
#if defined(__weft__)
/* One string: _Pragma takes no concatenation. */
#define cilk_reducer(identity, reduce)                                       \
  _Pragma("GCC error \"cilk_reducer is not supported by Weft: use cilk::opadd_reducer<T> from <cilk/opadd_reducer.h>, cilk::reducer<M> from <cilk/reducer_opadd.h> and its siblings, or weft::reducer<M>\"")
#else
#define cilk_reducer(identity, reduce)
#endif

#endif /* WEFT_CILK_CILK_H */
