// The project's parallel.h: a Cilk backend chosen by its own macros.
#include <cilk/cilk.h>
#define parallel_for cilk_for
#define parallel_for_1 _Pragma("cilk grainsize = 1") parallel_for
#define parallel_for_256 _Pragma("cilk grainsize 256") parallel_for
