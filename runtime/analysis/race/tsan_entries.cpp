//===- tsan_entries.cpp - The accesses clang's ThreadSanitizer pass reports ===//
//
// A race-mode module is compiled with `-fsanitize=thread
// -fno-sanitize-link-runtime`: clang-19's ThreadSanitizer pass instruments
// every load, store and memory intrinsic that may be shared and every
// function's entry and exit, and this file, not ThreadSanitizer's runtime,
// defines what it calls (LLVM's ThreadSanitizer.cpp has the list): plain,
// unaligned, volatile and compound accesses of 1 to 16 bytes, ranges,
// vtable-pointer updates and reads, and the memory intrinsics, which
// access their whole ranges and then do their work. The atomics are in
// tsan_atomics.cpp.
//
// It also defines Weft's own range checks, which the plugin emits instead
// of ThreadSanitizer's calls for a straight run of accesses to one range
// and for an access of a size ThreadSanitizer has no call for
// (plugin/finish/RaceRanges.cpp), and for each lane of a gather, scatter,
// masked load or masked store, which it does not instrument at all
// (plugin/finish/RaceVectorAccesses.cpp).
//
// An access's code address is where its __tsan_ call returns to, in the
// instrumented function; its call stack is the function entries' (each
// passes the address its function returns to).
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"

#include <cstring>

using weft::race::detector;
using weft::race::Detector;

namespace {

inline __attribute__((always_inline)) void
check(const volatile void *Address, std::size_t Size, bool Write,
      void *Pc) {
  if (__builtin_expect(Detector::owns(), true))
    detector().access(reinterpret_cast<std::uintptr_t>(Address), Size, Write,
                      reinterpret_cast<std::uintptr_t>(Pc));
}

} // namespace

#define WEFT_RA __builtin_return_address(0)

extern "C" {

void __tsan_init(void) {}

void __tsan_func_entry(void *ReturnPc) {
  if (Detector::follows())
    detector().funcEntry(
        reinterpret_cast<std::uintptr_t>(ReturnPc),
        reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
}

void __tsan_func_exit(void) {
  if (Detector::follows())
    detector().funcExit(
        reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
}

// Emitted around functions that must not be checked; nothing in them is
// instrumented here, so there is nothing to turn off.
void __tsan_ignore_thread_begin(void) {}
void __tsan_ignore_thread_end(void) {}

#define WEFT_TSAN_SIZED(N)                                                     \
  void __tsan_read##N(void *A) { check(A, N, false, WEFT_RA); }                \
  void __tsan_write##N(void *A) { check(A, N, true, WEFT_RA); }                \
  void __tsan_unaligned_read##N(const void *A) { check(A, N, false, WEFT_RA); } \
  void __tsan_unaligned_write##N(void *A) { check(A, N, true, WEFT_RA); }      \
  void __tsan_volatile_read##N(void *A) { check(A, N, false, WEFT_RA); }       \
  void __tsan_volatile_write##N(void *A) { check(A, N, true, WEFT_RA); }       \
  void __tsan_unaligned_volatile_read##N(void *A) {                            \
    check(A, N, false, WEFT_RA);                                               \
  }                                                                            \
  void __tsan_unaligned_volatile_write##N(void *A) {                           \
    check(A, N, true, WEFT_RA);                                                \
  }                                                                            \
  /* A read-modify-write (-tsan-compound-read-before-write): the write */      \
  /* finds every race the read would. */                                      \
  void __tsan_read_write##N(void *A) { check(A, N, true, WEFT_RA); }           \
  void __tsan_unaligned_read_write##N(void *A) { check(A, N, true, WEFT_RA); }

WEFT_TSAN_SIZED(1)
WEFT_TSAN_SIZED(2)
WEFT_TSAN_SIZED(4)
WEFT_TSAN_SIZED(8)
WEFT_TSAN_SIZED(16)

void __tsan_read_range(void *A, unsigned long Size) {
  check(A, Size, false, WEFT_RA);
}
void __tsan_write_range(void *A, unsigned long Size) {
  check(A, Size, true, WEFT_RA);
}

void __weft_race_read_range(const void *A, std::uint64_t Size) {
  check(A, Size, false, WEFT_RA);
}
void __weft_race_write_range(void *A, std::uint64_t Size) {
  check(A, Size, true, WEFT_RA);
}

// The vtable pointer: a constructor or destructor sets it (a write, unless
// it stays the same, as in a base's destructor run from a derived one's),
// a virtual call reads it.
void __tsan_vptr_update(void **Slot, void *NewValue) {
  if (*Slot != NewValue)
    check(Slot, sizeof(void *), true, WEFT_RA);
}
void __tsan_vptr_read(void **Slot) {
  check(Slot, sizeof(void *), false, WEFT_RA);
}

void *__tsan_memcpy(void *Dst, const void *Src, std::size_t N) {
  check(Src, N, false, WEFT_RA);
  check(Dst, N, true, WEFT_RA);
  return std::memcpy(Dst, Src, N);
}

void *__tsan_memmove(void *Dst, const void *Src, std::size_t N) {
  check(Src, N, false, WEFT_RA);
  check(Dst, N, true, WEFT_RA);
  return std::memmove(Dst, Src, N);
}

void *__tsan_memset(void *Dst, int C, std::size_t N) {
  check(Dst, N, true, WEFT_RA);
  return std::memset(Dst, C, N);
}

} // extern "C"
