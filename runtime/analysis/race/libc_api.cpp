//===- libc_api.cpp - What C library functions read and write -------------===//
//
// A library function that reads or writes memory on the program's behalf
// is not instrumented: a spawned `strcpy(copy, text)` racing with
// `strlen(copy)` in the continuation would go unseen. So the race runtime
// defines the C library's string and memory functions in front of glibc's
// (a program linked with libweft_race.a has them in its executable, which
// the dynamic linker prefers for every module's calls): each checks the
// bytes the function reads and writes, as the program's own accesses are
// checked, at the code address of its call, then calls glibc's own
// (found with dlsym, which resolves glibc's per-CPU variants).
//
// qsort reads and writes its whole array (its comparisons, the program's
// own code, are checked as they run). printf, scanf and the stream
// functions are checked the same way in stdio_api.cpp.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"
#include "analysis/race/next_symbol.h"

#include <cstddef>
#include <cstdint>

using weft::race::detector;
using weft::race::Detector;
using weft::race::nextSymbol;

namespace {

/// Checks \p Size bytes at \p Address, accessed by the call that returns
/// to \p Pc.
void bytes(const void *Address, std::size_t Size, bool Write, void *Pc) {
  if (Size && Detector::owns())
    detector().access(reinterpret_cast<std::uintptr_t>(Address), Size, Write,
                      reinterpret_cast<std::uintptr_t>(Pc));
}

using StrlenFn = std::size_t(const char *);
StrlenFn *RealStrlen;
std::size_t length(const char *S) { return nextSymbol(RealStrlen, "strlen")(S); }

std::size_t boundedLength(const char *S, std::size_t Max) {
  std::size_t N = 0;
  while (N < Max && S[N])
    ++N;
  return N;
}

} // namespace

extern "C" {

std::size_t strlen(const char *S) {
  std::size_t N = length(S);
  bytes(S, N + 1, false, WEFT_PC);
  return N;
}

std::size_t strnlen(const char *S, std::size_t Max) {
  std::size_t N = boundedLength(S, Max);
  bytes(S, N < Max ? N + 1 : N, false, WEFT_PC);
  return N;
}

char *strcpy(char *D, const char *S) {
  WEFT_REAL(strcpy, char *(char *, const char *));
  std::size_t N = length(S) + 1;
  bytes(S, N, false, WEFT_PC);
  bytes(D, N, true, WEFT_PC);
  return Next(D, S);
}

char *stpcpy(char *D, const char *S) {
  WEFT_REAL(stpcpy, char *(char *, const char *));
  std::size_t N = length(S) + 1;
  bytes(S, N, false, WEFT_PC);
  bytes(D, N, true, WEFT_PC);
  return Next(D, S);
}

char *strncpy(char *D, const char *S, std::size_t Max) {
  WEFT_REAL(strncpy, char *(char *, const char *, std::size_t));
  std::size_t N = boundedLength(S, Max);
  bytes(S, N < Max ? N + 1 : N, false, WEFT_PC);
  bytes(D, Max, true, WEFT_PC); // the rest is zeroed
  return Next(D, S, Max);
}

char *strcat(char *D, const char *S) {
  WEFT_REAL(strcat, char *(char *, const char *));
  std::size_t Head = length(D), N = length(S) + 1;
  bytes(D, Head + 1, false, WEFT_PC);
  bytes(S, N, false, WEFT_PC);
  bytes(D + Head, N, true, WEFT_PC);
  return Next(D, S);
}

char *strncat(char *D, const char *S, std::size_t Max) {
  WEFT_REAL(strncat, char *(char *, const char *, std::size_t));
  std::size_t Head = length(D), N = boundedLength(S, Max);
  bytes(D, Head + 1, false, WEFT_PC);
  bytes(S, N < Max ? N + 1 : N, false, WEFT_PC);
  bytes(D + Head, N + 1, true, WEFT_PC);
  return Next(D, S, Max);
}

int strcmp(const char *A, const char *B) {
  WEFT_REAL(strcmp, int(const char *, const char *));
  std::size_t N = 0;
  while (A[N] && A[N] == B[N])
    ++N;
  bytes(A, N + 1, false, WEFT_PC);
  bytes(B, N + 1, false, WEFT_PC);
  return Next(A, B);
}

int strncmp(const char *A, const char *B, std::size_t Max) {
  WEFT_REAL(strncmp, int(const char *, const char *, std::size_t));
  std::size_t N = 0;
  while (N < Max && A[N] && A[N] == B[N])
    ++N;
  std::size_t Read = N < Max ? N + 1 : N;
  bytes(A, Read, false, WEFT_PC);
  bytes(B, Read, false, WEFT_PC);
  return Next(A, B, Max);
}

int memcmp(const void *A, const void *B, std::size_t N) {
  WEFT_REAL(memcmp, int(const void *, const void *, std::size_t));
  const auto *X = static_cast<const unsigned char *>(A);
  const auto *Y = static_cast<const unsigned char *>(B);
  std::size_t Read = 0;
  while (Read < N && X[Read] == Y[Read])
    ++Read;
  Read = Read < N ? Read + 1 : N;
  bytes(A, Read, false, WEFT_PC);
  bytes(B, Read, false, WEFT_PC);
  return Next(A, B, N);
}

char *strdup(const char *S) {
  WEFT_REAL(strdup, char *(const char *));
  bytes(S, length(S) + 1, false, WEFT_PC);
  return Next(S);
}

char *strndup(const char *S, std::size_t Max) {
  WEFT_REAL(strndup, char *(const char *, std::size_t));
  std::size_t N = boundedLength(S, Max);
  bytes(S, N < Max ? N + 1 : N, false, WEFT_PC);
  return Next(S, Max);
}

char *strchr(const char *S, int C) {
  WEFT_REAL(strchr, char *(const char *, int));
  char *Found = Next(S, C);
  bytes(S, Found ? std::size_t(Found - S) + 1 : length(S) + 1, false, WEFT_PC);
  return Found;
}

char *strrchr(const char *S, int C) {
  WEFT_REAL(strrchr, char *(const char *, int));
  bytes(S, length(S) + 1, false, WEFT_PC);
  return Next(S, C);
}

char *strstr(const char *S, const char *Needle) {
  WEFT_REAL(strstr, char *(const char *, const char *));
  bytes(S, length(S) + 1, false, WEFT_PC);
  bytes(Needle, length(Needle) + 1, false, WEFT_PC);
  return Next(S, Needle);
}

void *memchr(const void *S, int C, std::size_t N) {
  WEFT_REAL(memchr, void *(const void *, int, std::size_t));
  void *Found = Next(S, C, N);
  bytes(S, Found ? std::size_t(static_cast<const char *>(Found) -
                               static_cast<const char *>(S)) + 1
                 : N,
        false, WEFT_PC);
  return Found;
}

void qsort(void *Base, std::size_t Count, std::size_t Size,
           int (*Compare)(const void *, const void *)) {
  WEFT_REAL(qsort, void(void *, std::size_t, std::size_t,
                        int (*)(const void *, const void *)));
  bytes(Base, Count * Size, true, WEFT_PC); // finds reads' races too
  Next(Base, Count, Size, Compare);
}

} // extern "C"
