//===- interpose.cpp - Freed heap memory loses its history ----------------===//
//
// A block freed by one strand and handed out again to a logically parallel
// one is not shared memory: the second strand's accesses must not be
// checked against the first's. So the race runtime defines free and
// realloc (new and delete reach them through malloc's family), which
// clear the history of the block's usable bytes and then call glibc's own
// (__libc_free, __libc_realloc). A program linked with libweft_race.a has
// them in its executable, which the dynamic linker prefers for every
// module's calls.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"

#include <malloc.h>

#include <cstdint>

extern "C" {
void __libc_free(void *);
void *__libc_realloc(void *, std::size_t);
}

using weft::race::detector;
using weft::race::Detector;

namespace {

/// The bytes of block \p P from \p From on, freed by the code at \p Pc.
void freeBlock(void *P, std::size_t From, void *Pc) {
  if (!P || !Detector::follows())
    return;
  std::size_t Size = malloc_usable_size(P);
  if (From >= Size)
    return;
  auto Begin = reinterpret_cast<std::uintptr_t>(P);
  detector().freed(Begin + From, Begin + Size,
                   reinterpret_cast<std::uintptr_t>(Pc));
}

} // namespace

extern "C" {

void free(void *P) noexcept {
  freeBlock(P, 0, __builtin_return_address(0));
  __libc_free(P);
}

void *realloc(void *P, std::size_t Size) noexcept {
  if (!P)
    return __libc_realloc(P, Size);
  if (Size == 0) { // frees P
    freeBlock(P, 0, __builtin_return_address(0));
    return __libc_realloc(P, Size);
  }
  std::size_t Old = malloc_usable_size(P);
  void *Q = __libc_realloc(P, Size);
  if (!Q)
    return Q; // P is untouched
  if (Q != P) {
    // Moved: the old block is free now (Q, a different block, does not
    // overlap it).
    if (Detector::follows()) {
      auto Begin = reinterpret_cast<std::uintptr_t>(P);
      detector().freed(Begin, Begin + Old,
                       reinterpret_cast<std::uintptr_t>(
                           __builtin_return_address(0)));
    }
  } else {
    // Shrunk in place: the tail is free.
    freeBlock(Q, Size, __builtin_return_address(0));
  }
  return Q;
}

} // extern "C"
