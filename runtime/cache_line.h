//===- cache_line.h - The cache line size the runtime pads to -------------===//
//
// Data that one thread writes and others read or write goes on a cache line
// of its own, so that a write does not invalidate a neighbour's line (false
// sharing): the deque's two ends, a worker's mailbox, the stack budget's
// count. 64 bytes is the line of x86-64 and of the common AArch64 cores. It
// is a constant rather than std::hardware_destructive_interference_size,
// whose value is the compiler's choice: the runtime may be built by another
// compiler than the clang-19 that compiles the spawn path the plugin
// inlines (fast_path.cpp), and both must lay out a Worker alike.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_CACHE_LINE_H
#define WEFT_RUNTIME_CACHE_LINE_H

#include <cstddef>

namespace weft {

inline constexpr std::size_t kCacheLineBytes = 64;

/// \p Bytes rounded up to a whole number of cache lines.
constexpr std::size_t round_up_to_cache_line(std::size_t Bytes) {
  return (Bytes + kCacheLineBytes - 1) & ~(kCacheLineBytes - 1);
}

} // namespace weft

#endif // WEFT_RUNTIME_CACHE_LINE_H
