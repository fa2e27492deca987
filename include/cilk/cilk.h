/*===- cilk/cilk.h - OpenCilk-compatible keywords for Weft -----------------===*\
 *
 * Programs written for OpenCilk or Cilk Plus include this header and use
 * cilk_spawn and cilk_sync unchanged. Without the Weft plugin they compile
 * as their serial elision.
 *
 * cilk_scope { ... } waits at the block's end for the children spawned in
 * it, as in OpenCilk. cilk_for is accepted and currently runs serially (a
 * cilk_for loop runs its iterations in order).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILK_H
#define WEFT_CILK_CILK_H

#include <weft/weft.h>

#define cilk_spawn weft_spawn
#define cilk_sync weft_sync
#define cilk_for for
#define cilk_scope weft_scope

#endif /* WEFT_CILK_CILK_H */
