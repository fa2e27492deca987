//===- config.cpp - Runtime settings read from the environment ------------===//
//
// config() reads the process's environment and resource limits once, at
// its first call; the parsing (config_parse.h) takes both as arguments so
// that its answers can be checked for any environment and any limits.
//
//===----------------------------------------------------------------------===//

#include "config.h"
#include "config_parse.h"

#include "stack_budget.h"

#include "weft/api.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sched.h>
#include <sys/resource.h>

namespace weft {

void invalid_setting(const char *Name, const char *Value,
                     const char *Expected) {
  std::fprintf(stderr, "weft: invalid %s='%s': expected %s\n", Name, Value,
               Expected);
  std::exit(2);
}

namespace {

/// Reads an unsigned decimal in [Lo, Hi]; returns Default if unset.
unsigned long readNumber(const EnvironmentLookup &Lookup, const char *Name,
                         unsigned long Lo, unsigned long Hi,
                         unsigned long Default, const char *Expected) {
  const char *Value = Lookup(Name);
  if (!Value)
    return Default;
  char *End = nullptr;
  errno = 0;
  unsigned long N = std::strtoul(Value, &End, 10);
  if (*Value == '\0' || *Value == '-' || *End != '\0' || errno || N < Lo ||
      N > Hi)
    invalid_setting(Name, Value, Expected);
  return N;
}

FenceMode readFenceMode(const EnvironmentLookup &Lookup) {
  const char *Value = Lookup("WEFT_FENCES");
  if (!Value || std::strcmp(Value, "auto") == 0)
    return FenceMode::Auto;
  if (std::strcmp(Value, "symmetric") == 0)
    return FenceMode::Symmetric;
  if (std::strcmp(Value, "asymmetric") == 0)
    return FenceMode::Asymmetric;
  invalid_setting("WEFT_FENCES", Value, "auto, symmetric or asymmetric");
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

// The stack sizes WEFT_STACK_KB and WEFT_MAIN_STACK_KB accept: from what
// the runtime's own frames and a signal handler need to 1 GiB.
constexpr unsigned long kSmallestStackKB = 64;
constexpr unsigned long kLargestStackKB = 1ul << 20;
// WEFT_MAX_STACKS's largest value: a million stacks of 64 KiB already take
// 64 GiB of address space.
constexpr unsigned long kMostStacks = 1ul << 20;
// WEFT_DEBUG_HANG's largest value: a day.
constexpr unsigned long kLongestHangWatchS = 86400;
// The stack a serial program usually gets (ulimit -s).
constexpr unsigned long kUsualStackKB = 8192;
// How many times the serial program's stack a deep stack is (deepStackKB).
constexpr unsigned long kDeepStackFactor = 16;

/// WEFT_NWORKERS if set, else OpenCilk's and Cilk Plus's CILK_NWORKERS, so
/// that their users' scripts keep working.
const char *nworkersVariable(const EnvironmentLookup &Lookup) {
  if (!Lookup("WEFT_NWORKERS") && Lookup("CILK_NWORKERS"))
    return "CILK_NWORKERS";
  return "WEFT_NWORKERS";
}

/// A limit getrlimit cannot read counts as none, as an unlimited one.
rlimit readLimit(int Resource) {
  rlimit Limit;
  if (getrlimit(Resource, &Limit) != 0)
    Limit.rlim_cur = Limit.rlim_max = RLIM_INFINITY;
  return Limit;
}

} // namespace

ResourceLimits currentResourceLimits() {
  return {readLimit(RLIMIT_STACK), readLimit(RLIMIT_AS)};
}

/// How much stack a deep recursion of spawning functions may need, in KiB:
/// 16 times the soft stack limit the serial program runs under (128 MiB
/// under the usual 8 MiB), since a spawning function's frame is up to
/// about 10 times a serial one's (main_stack.h). It is address space: the
/// stacks are mapped with MAP_NORESERVE, and only touched pages cost.
unsigned long deepStackKB(const rlimit &StackLimit) {
  unsigned long SerialKB = StackLimit.rlim_cur == RLIM_INFINITY
                               ? kUsualStackKB
                               : static_cast<unsigned long>(StackLimit.rlim_cur >> 10);
  return std::min(SerialKB * kDeepStackFactor, kLargestStackKB);
}

/// main's stack by default: a deep stack, or none (0) when the stack limit
/// is unlimited, since main's own stack then grows until it meets other
/// mappings, further than a fixed size would reach.
unsigned long defaultMainStackKB(const rlimit &StackLimit) {
  return StackLimit.rlim_cur == RLIM_INFINITY ? 0 : deepStackKB(StackLimit);
}

/// A fiber stack by default: a deep stack, since a thief may resume a
/// continuation that recurses as deep as main could, but under an address
/// space limit (ulimit -v) no more than lets half of it hold every stack
/// that may be mapped at once (stack_budget.h), and not below the serial
/// program's 8 MiB unless that limit forces it.
unsigned long defaultStackKB(const ResourceLimits &Limits, unsigned Workers,
                             unsigned long MaxStacks) {
  unsigned long KB = deepStackKB(Limits.Stack);
  const rlimit &AddressLimit = Limits.AddressSpace;
  if (AddressLimit.rlim_cur == RLIM_INFINITY)
    return KB;
  unsigned long Stacks = (MaxStacks ? MaxStacks : kDefaultStacksPerWorker * Workers) +
                         kFreeStacksKept * Workers + 2;
  unsigned long HalfTheAddressSpaceKB =
      static_cast<unsigned long>(AddressLimit.rlim_cur >> 10) / 2;
  unsigned long FitKB = HalfTheAddressSpaceKB / Stacks;
  if (FitKB >= KB)
    return KB;
  return std::max(FitKB, std::min(KB, kUsualStackKB));
}

Config parseConfig(const EnvironmentLookup &Lookup,
                   const ResourceLimits &Limits, unsigned Cpus) {
  Config C;
  C.nworkers = static_cast<unsigned>(
      readNumber(Lookup, nworkersVariable(Lookup), 1, WEFT_MAX_NWORKERS,
                 Cpus < WEFT_MAX_NWORKERS ? Cpus : WEFT_MAX_NWORKERS,
                 "an integer from 1 to 256"));
  C.stats = readNumber(Lookup, "WEFT_STATS", 0, 1, 0, "0 or 1") == 1;
  C.stress = readNumber(Lookup, "WEFT_STRESS", 0, 1, 0, "0 or 1") == 1;
  C.max_stacks = readNumber(Lookup, "WEFT_MAX_STACKS", 1, kMostStacks, 0,
                            "a stack count from 1 to 1048576");
  C.stack_bytes =
      readNumber(Lookup, "WEFT_STACK_KB", kSmallestStackKB, kLargestStackKB,
                 defaultStackKB(Limits, C.nworkers, C.max_stacks),
                 "a stack size in KiB from 64 to 1048576") << 10;
  constexpr const char *MainExpected = "0, or a stack size in KiB from 64 to 1048576";
  C.main_stack_bytes =
      readNumber(Lookup, "WEFT_MAIN_STACK_KB", 0, kLargestStackKB,
                 defaultMainStackKB(Limits.Stack), MainExpected) << 10;
  if (C.main_stack_bytes != 0 && C.main_stack_bytes < (kSmallestStackKB << 10))
    invalid_setting("WEFT_MAIN_STACK_KB", Lookup("WEFT_MAIN_STACK_KB"),
                    MainExpected);
  C.fences = readFenceMode(Lookup);
  C.debug_hang_seconds = static_cast<unsigned>(
      readNumber(Lookup, "WEFT_DEBUG_HANG", 0, kLongestHangWatchS, 0,
                 "0 (off) or a number of seconds from 1 to 86400"));
  return C;
}

const Config &config() {
  static const Config C = parseConfig(
      [](const char *Name) -> const char * { return std::getenv(Name); },
      currentResourceLimits(), cpusInAffinityMask());
  return C;
}

int WorkerCount::set(unsigned N) {
  if (N < 1 || N > WEFT_MAX_NWORKERS)
    return WEFT_EINVAL;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Fixed)
    return WEFT_ESTARTED;
  Count.store(N, std::memory_order_relaxed);
  return WEFT_OK;
}

unsigned WorkerCount::fix() {
  std::lock_guard<std::mutex> Guard(Lock);
  Fixed = true;
  return get();
}

unsigned WorkerCount::get() const {
  return PinnedToOne.load(std::memory_order_relaxed)
             ? 1
             : Count.load(std::memory_order_relaxed);
}

void WorkerCount::pinToOne() {
  std::lock_guard<std::mutex> Guard(Lock);
  Fixed = true;
  PinnedToOne.store(true, std::memory_order_relaxed);
}

unsigned WorkerCount::planned() const {
  return Count.load(std::memory_order_relaxed);
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
