//===- preserve_most.h - Calls that keep the caller's registers -----------===//
//
// LLVM's preserve_most convention keeps every general register but r11
// across a call, so that a caller holds its values where they are instead
// of in callee-saved registers it must save in its prologue. The fast path
// inlined into fast clones calls the push's rare paths so (fast_path.cpp).
// The runtime is not necessarily built by Clang, which alone knows the
// convention, so a thunk implements it: it keeps the registers that the C
// convention lets a callee clobber (rcx, rdx, rsi, rdi, r8 to r10) around a
// plain call of the function.
//
// On x86-64 only. Elsewhere (AArch64) the rare paths are plain calls: the
// thunks are assembly for one instruction set, and AArch64's ten
// callee-saved general registers (x19 to x28, against x86-64's six) leave
// a fast clone less short of registers to keep its values in.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_PRESERVE_MOST_H
#define WEFT_RUNTIME_PRESERVE_MOST_H

#include <cstdint>

#if defined(__x86_64__)
/// Defines `std::int64_t Thunk(void *)`, which calls `Target` (a function of
/// the same type, with C linkage) keeping rcx, rdx, rsi, rdi and r8 to r10.
/// The entry's stack is 8 bytes past a 16-byte boundary; seven pushes align
/// it for the call.
/// Each push and pop tells the unwind tables how far the stack moved, so
/// that debuggers and sanitizers see the caller behind the thunk.
#define WEFT_PRESERVE_MOST_SAVE(Reg)                                           \
  "push %" #Reg "\n\t.cfi_adjust_cfa_offset 8\n\t"
#define WEFT_PRESERVE_MOST_RESTORE(Reg)                                        \
  "pop %" #Reg "\n\t.cfi_adjust_cfa_offset -8\n\t"
#define WEFT_PRESERVE_MOST_THUNK(Thunk, Target)                                \
  WEFT_PRESERVE_MOST_THUNK_TYPED(std::int64_t, Thunk, (void *), Target)
/// The same for a Target of another type: \p Type and \p Parameters are
/// the thunk's, as declared (weft/runtime_abi.def).
#define WEFT_PRESERVE_MOST_THUNK_TYPED(Type, Thunk, Parameters, Target)        \
  extern "C" __attribute__((naked)) Type Thunk Parameters {                    \
    asm(WEFT_PRESERVE_MOST_SAVE(rcx) WEFT_PRESERVE_MOST_SAVE(rdx)              \
            WEFT_PRESERVE_MOST_SAVE(rsi) WEFT_PRESERVE_MOST_SAVE(rdi)          \
                WEFT_PRESERVE_MOST_SAVE(r8) WEFT_PRESERVE_MOST_SAVE(r9)        \
                    WEFT_PRESERVE_MOST_SAVE(r10)                               \
        "call " #Target "@PLT\n\t"                                            \
        WEFT_PRESERVE_MOST_RESTORE(r10) WEFT_PRESERVE_MOST_RESTORE(r9)         \
            WEFT_PRESERVE_MOST_RESTORE(r8) WEFT_PRESERVE_MOST_RESTORE(rdi)     \
                WEFT_PRESERVE_MOST_RESTORE(rsi) WEFT_PRESERVE_MOST_RESTORE(rdx) \
                    WEFT_PRESERVE_MOST_RESTORE(rcx) "ret");                    \
  }
#endif

#endif // WEFT_RUNTIME_PRESERVE_MOST_H
