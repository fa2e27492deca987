//===- library_access.cpp - Checks for C library functions' accesses ------===//
//
// What library_access.h declares, for the files that cannot include the
// detector's header (stdio_api.cpp).
//
//===----------------------------------------------------------------------===//

#include "analysis/race/library_access.h"
#include "analysis/race/detector.h"

#include <cstdint>

namespace weft::race {

bool libraryCallChecked() { return Detector::owns(); }

void libraryAccess(const void *Address, std::size_t Size, bool Write,
                   void *Pc) {
  if (!Size)
    return;
  // This frame is below the library function's callers, instrumented or
  // not: what they wrote on the stack is forgotten when it dies.
  detector().libraryFrame(
      reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
  detector().access(reinterpret_cast<std::uintptr_t>(Address), Size, Write,
                    reinterpret_cast<std::uintptr_t>(Pc));
}

} // namespace weft::race
