//===- fence.cpp - Choosing the fence policy; the membarrier --------------===//

#include "fence.h"

#include "config.h"

#include <cstdio>
#include <cstdlib>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft {

FencePolicy detail::DefaultFencePolicy = FencePolicy::Fenced;

namespace {

/// Set once by fences_init(), before the workers that read it start.
bool MembarrierRegistered = false;

long membarrier(int Command) {
  return syscall(SYS_membarrier, Command, 0, 0);
}

/// Registers for private expedited membarriers; false if the kernel (or a
/// sandbox in front of it) does not offer them.
bool registerMembarrier() {
  long Supported = membarrier(MEMBARRIER_CMD_QUERY);
  if (Supported < 0 || !(Supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
    return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

} // namespace

namespace {

void choosePolicy() {
  FenceMode Mode = config().fences;
  if (Mode == FenceMode::Symmetric) { // no membarrier at all, not even idle
    detail::DefaultFencePolicy = FencePolicy::Fenced;
    return;
  }
  MembarrierRegistered = registerMembarrier();
  if (!MembarrierRegistered) {
    if (Mode == FenceMode::Asymmetric) {
      std::fprintf(stderr, "weft: WEFT_FENCES=asymmetric, but this kernel does "
                           "not offer membarrier(PRIVATE_EXPEDITED)\n");
      std::exit(2);
    }
    detail::DefaultFencePolicy = FencePolicy::Fenced;
    return;
  }
  detail::DefaultFencePolicy = Mode == FenceMode::Asymmetric
                                   ? FencePolicy::Unfenced
                                   : FencePolicy::Adaptive;
}

} // namespace

void fences_init() {
  // Once: tests call this beside the pool's own call, while workers read
  // what it chose.
  static const bool Chosen = (choosePolicy(), true);
  (void)Chosen;
}

bool membarrier_available() { return MembarrierRegistered; }

void heavy_fence() {
  // Cannot fail once registered; the fence is still a fence for this thread.
  if (MembarrierRegistered)
    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
  full_fence();
}

} // namespace weft
