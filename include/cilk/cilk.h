/*===- cilk/cilk.h - OpenCilk-compatible keywords for Weft -----------------===*\
 *
 * Programs written for OpenCilk or Cilk Plus include this header and use
 * cilk_spawn and cilk_sync unchanged. Without the Weft plugin they compile
 * as their serial elision.
 *
 * cilk_for and cilk_scope are accepted and currently run serially (a
 * cilk_for loop runs its iterations in order; a cilk_scope block syncs at
 * its end, which a serial block trivially does).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILK_H
#define WEFT_CILK_CILK_H

#include <weft/weft.h>

#define cilk_spawn weft_spawn
#define cilk_sync weft_sync
#define cilk_for for
#define cilk_scope

#endif /* WEFT_CILK_CILK_H */
