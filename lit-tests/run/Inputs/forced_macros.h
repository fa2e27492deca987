// Read with -imacros: only its macros stay, so the source includes nothing
// of Weft's itself.
#include <cilk/cilk.h>
#define IMACROS_FOR cilk_for
#define IMACROS_SPAWN cilk_spawn
#define IMACROS_SYNC cilk_sync
