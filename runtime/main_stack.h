//===- main_stack.h - Running main on a stack as deep as it needs ---------===//
//
// A fast clone keeps its coroutine frame, the Weft frame header and every
// value live across a spawn, in its own stack frame, beside its ordinary
// spill slots. A chain of spawning calls therefore takes several times the
// serial program's stack per level: for `chain(n)` below, 128 bytes against
// 13 at -O2 and 320 against 48 at -O0 (lit-tests/run/deep_recursion.cpp).
// On the 8 MiB main stack the serial program is limited by, Weft's
// recursion would stop 5 to 10 times shallower.
//
//   long chain(long n) {
//     if (n == 0) return 0;
//     long x = cilk_spawn chain(n - 1);
//     cilk_sync;
//     return x + n;
//   }
//
// So the plugin has a program's main entered through __weft_run_main
// (plugin/lower/MainStack.cpp), which runs it on a stack of its own:
// WEFT_MAIN_STACK_KB, by default 16 times the soft RLIMIT_STACK (128 MiB
// under the usual 8 MiB), mapped with MAP_NORESERVE and a guard page, so it
// costs address space and only the pages the recursion touches. That stack
// is main's thread's own in every other respect: it only ever runs on that
// thread (a stolen frame parks it like any native stack), and when main
// returns, the thread returns to its real stack and to the C library.
//
// Threads other than main, and programs whose main was compiled without
// the plugin, keep the stacks they were given.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_MAIN_STACK_H
#define WEFT_RUNTIME_MAIN_STACK_H

#include "weft/frame_abi.h" // __weft_run_main

#include <cstddef>

namespace weft {

/// If the calling thread is running main on the stack __weft_run_main
/// mapped, sets \p Bottom (its lowest usable address) and \p Size and
/// returns true; the thread's own stack is then not the one it runs on.
bool running_on_main_stack(const void **Bottom, std::size_t *Size);

} // namespace weft

#endif // WEFT_RUNTIME_MAIN_STACK_H
