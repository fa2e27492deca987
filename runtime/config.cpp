//===- config.cpp - Runtime settings read from the environment ------------===//

#include "config.h"

#include "weft/api.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sched.h>

namespace weft {
namespace {

[[noreturn]] void invalid(const char *Name, const char *Value,
                          const char *Expected) {
  std::fprintf(stderr, "weft: invalid %s='%s': expected %s\n", Name, Value,
               Expected);
  std::exit(2);
}

/// Reads an unsigned decimal in [Lo, Hi]; returns Default if unset.
unsigned long readNumber(const char *Name, unsigned long Lo, unsigned long Hi,
                         unsigned long Default, const char *Expected) {
  const char *Value = std::getenv(Name);
  if (!Value)
    return Default;
  char *End = nullptr;
  errno = 0;
  unsigned long N = std::strtoul(Value, &End, 10);
  if (*Value == '\0' || *Value == '-' || *End != '\0' || errno || N < Lo ||
      N > Hi)
    invalid(Name, Value, Expected);
  return N;
}

FenceMode readFenceMode() {
  const char *Value = std::getenv("WEFT_FENCES");
  if (!Value || std::strcmp(Value, "auto") == 0)
    return FenceMode::Auto;
  if (std::strcmp(Value, "symmetric") == 0)
    return FenceMode::Symmetric;
  if (std::strcmp(Value, "asymmetric") == 0)
    return FenceMode::Asymmetric;
  invalid("WEFT_FENCES", Value, "auto, symmetric or asymmetric");
}

unsigned cpusInAffinityMask() {
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) != 0)
    return 1;
  int N = CPU_COUNT(&Set);
  return N > 0 ? static_cast<unsigned>(N) : 1;
}

// External threads beyond the pool need slots of their own.
static_assert(WEFT_MAX_NWORKERS <= kMaxWorkers / 2);

/// WEFT_NWORKERS if set, else OpenCilk's and Cilk Plus's CILK_NWORKERS, so
/// that their users' scripts keep working.
const char *nworkersVariable() {
  if (!std::getenv("WEFT_NWORKERS") && std::getenv("CILK_NWORKERS"))
    return "CILK_NWORKERS";
  return "WEFT_NWORKERS";
}

Config parse() {
  Config C;
  unsigned Cpus = cpusInAffinityMask();
  C.nworkers = static_cast<unsigned>(
      readNumber(nworkersVariable(), 1, WEFT_MAX_NWORKERS,
                 Cpus < WEFT_MAX_NWORKERS ? Cpus : WEFT_MAX_NWORKERS,
                 "an integer from 1 to 256"));
  C.stats = readNumber("WEFT_STATS", 0, 1, 0, "0 or 1") == 1;
  C.stress = readNumber("WEFT_STRESS", 0, 1, 0, "0 or 1") == 1;
  C.stack_bytes =
      readNumber("WEFT_STACK_KB", 64, 1u << 20, 8192,
                 "a stack size in KiB from 64 to 1048576") << 10;
  C.max_stacks = readNumber("WEFT_MAX_STACKS", 1, 1u << 20, 0,
                            "a stack count from 1 to 1048576");
  C.fences = readFenceMode();
  return C;
}

} // namespace

const Config &config() {
  static const Config C = parse();
  return C;
}

int WorkerCount::set(unsigned N) {
  if (N < 1 || N > WEFT_MAX_NWORKERS)
    return WEFT_EINVAL;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Fixed)
    return WEFT_ESTARTED;
  Count = N;
  return WEFT_OK;
}

unsigned WorkerCount::fix() {
  std::lock_guard<std::mutex> Guard(Lock);
  Fixed = true;
  return PinnedToOne ? 1 : Count;
}

unsigned WorkerCount::get() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return PinnedToOne ? 1 : Count;
}

void WorkerCount::pinToOne() {
  std::lock_guard<std::mutex> Guard(Lock);
  Fixed = true;
  PinnedToOne = true;
}

unsigned WorkerCount::planned() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Count;
}

bool WorkerCount::fixed() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Fixed;
}

WorkerCount &nworkers_setting() {
  static WorkerCount Setting(config().nworkers);
  return Setting;
}

} // namespace weft
