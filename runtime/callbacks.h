//===- callbacks.h - OpenCilk's runtime start and exit callbacks ----------===//
//
// __cilkrts_atinit() and __cilkrts_atexit() (cilk/cilk_api.h) register
// functions that a library depending on the runtime wants run when the
// pool starts and when it shuts down. As in OpenCilk: up to 32 of each;
// start callbacks run in the order they were registered, exit callbacks in
// the reverse order; a start callback registered once the pool runs is
// refused, since it would never run.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_CALLBACKS_H
#define WEFT_RUNTIME_CALLBACKS_H

namespace weft {

/// On the thread that started the pool, once it is a worker and before it
/// runs the spawn that started the pool.
void run_start_callbacks();

/// As the pool shuts down, while its workers still run.
void run_exit_callbacks();

} // namespace weft

#endif // WEFT_RUNTIME_CALLBACKS_H
