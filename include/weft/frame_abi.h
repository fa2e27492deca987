/*===- weft/frame_abi.h - Frame layout shared by the IR pass and runtime ---===*\
 *
 * Every spawning function owns one WeftFrame, stored as the promise of the
 * coroutine that the IR pass builds from it. The pass emits loads and stores
 * at the offsets below; the runtime reads the same fields through the struct.
 * Both sides include this header, and the static_asserts keep them in step.
 *
 * The frame lives inside the coroutine frame, which lives in the fast clone's
 * own stack frame: a fast clone whose frame was stolen parks its whole stack
 * until the slow clone finishes, so that stack memory outlives every reader.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_FRAME_ABI_H
#define WEFT_FRAME_ABI_H

#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Offsets the IR pass relies on. */
#define WEFT_FRAME_JOIN_OFFSET 0
#define WEFT_FRAME_PARK_OFFSET 8
#define WEFT_FRAME_STEALS_OFFSET 16
#define WEFT_FRAME_STOLEN_OFFSET 20
#define WEFT_FRAME_EXCEPTION_OFFSET 24
#define WEFT_FRAME_VIEWS_OFFSET 32
#define WEFT_FRAME_SIZE 40
#define WEFT_FRAME_ALIGN 8

/* Where the frame sits in its coroutine frame. The pass aligns the promise
 * to WEFT_FRAME_PROMISE_ALIGN, and LLVM's switch-resume lowering puts the
 * promise right after the resume and destroy pointers, rounded up to its
 * alignment (what llvm.coro.promise and std::coroutine_handle::from_promise
 * rely on): 16 bytes after the coroutine handle with 4- or 8-byte pointers.
 * So the runtime finds the handle from the frame, and no spawn stores it. */
#define WEFT_FRAME_PROMISE_ALIGN 16
#define WEFT_FRAME_PROMISE_OFFSET 16

/* Entry points the IR pass calls. Their contracts are documented in
 * runtime/abi.cpp, next to their definitions. */
void __weft_push(void *frame);
bool __weft_pop(void);
void __weft_after_push(void *worker);
void __weft_spawn_stolen(void *frame);
bool __weft_sync_slow(void *frame);
void __weft_frame_complete(void *frame);
void __weft_catch(void *frame, void *exception);
/* Dynamic allocas of slow clones (runtime/arena.cpp): `arena` is a
 * pointer-sized slot of the caller's frame, null before the first call. */
void *__weft_arena_alloc(void *arena, uint64_t bytes, uint64_t align);
void __weft_arena_release(void *arena);
#ifdef __cplusplus
[[noreturn]]
#endif
void __weft_rethrow(void *frame);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_FRAME_ABI_H */
