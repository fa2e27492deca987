//===- fence.cpp - Choosing and issuing the heavy side of a fence pair ----===//

#include "fence.h"

#include "config.h"

#include <cstdio>
#include <cstdlib>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft {

bool detail::AsymmetricFences = false;

namespace {

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

void fences_init() {
#ifdef WEFT_SYMMETRIC_FENCES
  return;
#else
  FenceMode Mode = config().fences;
  if (Mode == FenceMode::Symmetric)
    return;
  if (registerMembarrier()) {
    detail::AsymmetricFences = true;
    return;
  }
  if (Mode == FenceMode::Asymmetric) {
    std::fprintf(stderr, "weft: WEFT_FENCES=asymmetric, but this kernel does "
                         "not offer membarrier(PRIVATE_EXPEDITED)\n");
    std::exit(2);
  }
#endif
}

void heavy_fence() {
  if (!fences_asymmetric()) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return;
  }
  // Cannot fail once registered; the fence is still a fence for this thread.
  membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

} // namespace weft
