/*===- cilk/cilk_stub.h - The keywords defined away (serial) --------------===*\
 *
 * As OpenCilk's and Cilk Plus's: a program that includes this header asks
 * for its serial elision, whatever compiles it. Compiled with the Weft
 * plugin, the plugin warns at each keyword this turns into serial code
 * (SerialKeywords.cpp): include <cilk/cilk.h> instead to run in parallel.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILK_STUB_H
#define WEFT_CILK_CILK_STUB_H

#define cilk_for for
#define cilk_spawn /* empty */
#define cilk_sync  /* empty */
#define cilk_scope /* empty */

#endif /* WEFT_CILK_CILK_STUB_H */
