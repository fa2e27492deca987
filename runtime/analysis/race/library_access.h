//===- library_access.h - Checks for C library functions' accesses --------===//
//
// The C library functions the race runtime defines in front of glibc's
// check the bytes they read and write as the program's own accesses are
// checked. stdio_api.cpp defines printf, scanf and their relatives, whose
// names <stdio.h> declares (in C++ with glibc's redirections to the
// __isoc99_ names and with exception specifications), so it cannot include
// the detector's header, which brings <cstdio> in: it checks through these
// two functions instead (library_access.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_RACE_LIBRARY_ACCESS_H
#define WEFT_RUNTIME_ANALYSIS_RACE_LIBRARY_ACCESS_H

#include <cstddef>

namespace weft::race {

/// Whether the calling thread's accesses are checked now: the followed
/// thread, with checking on (Detector::owns()).
bool libraryCallChecked();

/// Checks \p Size bytes at \p Address, read or written by the library call
/// that returns to \p Pc. Only when libraryCallChecked().
void libraryAccess(const void *Address, std::size_t Size, bool Write,
                   void *Pc);

} // namespace weft::race

#endif // WEFT_RUNTIME_ANALYSIS_RACE_LIBRARY_ACCESS_H
