/*===- weft/frame_abi.h - What the IR pass and the runtime share ----------===*\
 *
 * Every spawning function owns one WeftFrame, stored as the promise of the
 * coroutine that the IR pass builds from it. The pass emits loads and stores
 * at the offsets below; the runtime reads the same fields through the struct.
 * Both sides include this header, and the static_asserts keep them in step.
 *
 * The frame lives inside the coroutine frame, which lives in the fast clone's
 * own stack frame: a fast clone whose frame was stolen parks its whole stack
 * until the slow clone finishes, so that stack memory outlives every reader.
 *
 * The runtime's entry points that compiled code calls are declared at the
 * end, from weft/runtime_abi.def.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_FRAME_ABI_H
#define WEFT_FRAME_ABI_H

#include <stddef.h>
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

/* A pedigree frame (runtime/pedigree.h), which the pass allocates for
 * each spawned child in code built with pedigrees. */
#define WEFT_PEDIGREE_FRAME_SIZE 40
#define WEFT_PEDIGREE_FRAME_ALIGN 8

/* Where the frame sits in its coroutine frame. The pass aligns the promise
 * to WEFT_FRAME_PROMISE_ALIGN, and LLVM's switch-resume lowering puts the
 * promise right after the resume and destroy pointers, rounded up to its
 * alignment (what llvm.coro.promise and std::coroutine_handle::from_promise
 * rely on): 16 bytes after the coroutine handle with 4- or 8-byte pointers.
 * So the runtime finds the handle from the frame, and no spawn stores it. */
#define WEFT_FRAME_PROMISE_ALIGN 16
#define WEFT_FRAME_PROMISE_OFFSET 16

/* Every runtime entry point compiled code calls, declared from the one
 * list (weft/runtime_abi.def), which also holds each one's contract: a
 * runtime definition that differs from its entry does not compile. */
#ifdef __cplusplus
#define WEFT_ABI_DECL_NORETURN [[noreturn]]
#else
#define WEFT_ABI_DECL_NORETURN __attribute__((__noreturn__))
#endif
#define WEFT_ABI_DECL_NOUNWIND
#define WEFT_ABI_DECL_UNWINDS
/* Only Clang knows the convention; the runtime's thunks that implement it
 * are naked functions, whatever compiles them (runtime/abi.cpp), and x86-64
 * assembly: elsewhere the rare paths are plain calls
 * (runtime/preserve_most.h says why). */
#if defined(__clang__) && defined(__x86_64__)
#define WEFT_ABI_DECL_PRESERVE_MOST __attribute__((preserve_most))
#else
#define WEFT_ABI_DECL_PRESERVE_MOST
#endif
#define WEFT_RUNTIME(Id, Name, Ret, Params, Attrs)                             \
  WEFT_ABI_DECL_##Attrs Ret Name Params;
#include "weft/runtime_abi.def"
#undef WEFT_ABI_DECL_NORETURN
#undef WEFT_ABI_DECL_NOUNWIND
#undef WEFT_ABI_DECL_UNWINDS
#undef WEFT_ABI_DECL_PRESERVE_MOST

#ifdef __cplusplus
}
#endif

#endif /* WEFT_FRAME_ABI_H */
