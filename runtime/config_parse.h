//===- config_parse.h - The parsing behind config() -----------------------===//
//
// config() (config.h) reads the process's environment, resource limits and
// affinity mask once. What it makes of them is computed here from arguments,
// so that the answers for any environment and any limits can be checked
// without changing the process's own. A bad value still prints one line
// naming the variable and exits with status 2.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_CONFIG_PARSE_H
#define WEFT_RUNTIME_CONFIG_PARSE_H

#include "config.h"

#include <functional>
#include <sys/resource.h>

namespace weft {

/// An environment variable's value, or null when it is unset.
using EnvironmentLookup = std::function<const char *(const char *Name)>;

/// The limits the default stack sizes follow. A limit that cannot be read
/// is RLIM_INFINITY, as if there were none.
struct ResourceLimits {
  rlimit Stack;        // RLIMIT_STACK
  rlimit AddressSpace; // RLIMIT_AS
};

/// The process's limits now: the one place that calls getrlimit.
ResourceLimits currentResourceLimits();

/// The settings for the environment \p Lookup reads, under \p Limits, on a
/// machine whose affinity mask holds \p Cpus CPUs.
Config parseConfig(const EnvironmentLookup &Lookup,
                   const ResourceLimits &Limits, unsigned Cpus);

/// The stack defaults, in KiB (config.cpp says why each is what it is).
unsigned long deepStackKB(const rlimit &StackLimit);
unsigned long defaultMainStackKB(const rlimit &StackLimit);
unsigned long defaultStackKB(const ResourceLimits &Limits, unsigned Workers,
                             unsigned long MaxStacks);

} // namespace weft

#endif // WEFT_RUNTIME_CONFIG_PARSE_H
