// Unit tests of the runtime's settings (config_parse.h): each variable's
// default, valid and invalid values (a bad one prints one line naming it
// and exits with status 2), WEFT_NWORKERS against OpenCilk's CILK_NWORKERS,
// and the default stack sizes under finite, unlimited and tiny stack
// limits and under an address-space limit. The environment and the limits
// are the test's own, never the process's.
#include "config_parse.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

using weft::Config;
using weft::FenceMode;
using weft::ResourceLimits;

constexpr rlim_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

rlimit limit(rlim_t Bytes) { return {Bytes, Bytes}; }
rlimit unlimited() { return {RLIM_INFINITY, RLIM_INFINITY}; }

/// The usual machine: `ulimit -s 8192`, no `ulimit -v`.
ResourceLimits usualLimits() { return {limit(8 * MiB), unlimited()}; }

using Vars = std::map<std::string, std::string>;

/// An environment of the test's own.
class Environment {
public:
  explicit Environment(Vars V) : Values(std::move(V)) {}
  weft::EnvironmentLookup lookup() const {
    return [this](const char *Name) -> const char * {
      auto It = Values.find(Name);
      return It == Values.end() ? nullptr : It->second.c_str();
    };
  }

private:
  Vars Values;
};

Config parse(const Environment &Env, ResourceLimits Limits = usualLimits(),
             unsigned Cpus = 6) {
  return weft::parseConfig(Env.lookup(), Limits, Cpus);
}

Config parseOne(const std::string &Name, const std::string &Value) {
  return parse(Environment(Vars{{Name, Value}}));
}

/// \p Text as a POSIX extended regex matching itself.
std::string literal(const std::string &Text) {
  std::string Out;
  for (char Ch : Text) {
    if (std::string("\\^$.|?*+()[]{}").find(Ch) != std::string::npos)
      Out += '\\';
    Out += Ch;
  }
  return Out;
}

TEST(Config, Defaults) {
  Config C = parse(Environment(Vars{}));
  EXPECT_EQ(C.nworkers, 6u); // the CPUs in the affinity mask
  EXPECT_FALSE(C.stats);
  EXPECT_FALSE(C.stress);
  EXPECT_EQ(C.max_stacks, 0u);
  EXPECT_EQ(C.stack_bytes, 128 * MiB); // 16 times 8 MiB
  EXPECT_EQ(C.main_stack_bytes, 128 * MiB);
  EXPECT_EQ(C.fences, FenceMode::Auto);
  EXPECT_EQ(C.debug_hang_seconds, 0u);
}

TEST(Config, WorkersDefaultToCpusUpToTheMaximum) {
  EXPECT_EQ(parse(Environment(Vars{}), usualLimits(), 1).nworkers, 1u);
  EXPECT_EQ(parse(Environment(Vars{}), usualLimits(), 256).nworkers, 256u);
  EXPECT_EQ(parse(Environment(Vars{}), usualLimits(), 1000).nworkers, 256u);
}

TEST(Config, WeftNworkersOverCilkNworkers) {
  EXPECT_EQ(parseOne("WEFT_NWORKERS", "3").nworkers, 3u);
  EXPECT_EQ(parseOne("CILK_NWORKERS", "5").nworkers, 5u);
  EXPECT_EQ(
      parse(Environment(Vars{{"WEFT_NWORKERS", "3"}, {"CILK_NWORKERS", "5"}}))
          .nworkers,
      3u);
  EXPECT_EQ(parseOne("WEFT_NWORKERS", "1").nworkers, 1u);
  EXPECT_EQ(parseOne("WEFT_NWORKERS", "256").nworkers, 256u);
}

TEST(Config, ValidValues) {
  EXPECT_TRUE(parseOne("WEFT_STATS", "1").stats);
  EXPECT_FALSE(parseOne("WEFT_STATS", "0").stats);
  EXPECT_TRUE(parseOne("WEFT_STRESS", "1").stress);
  EXPECT_EQ(parseOne("WEFT_MAX_STACKS", "1").max_stacks, 1u);
  EXPECT_EQ(parseOne("WEFT_MAX_STACKS", "1048576").max_stacks, 1048576u);
  EXPECT_EQ(parseOne("WEFT_STACK_KB", "64").stack_bytes, 64 * KiB);
  EXPECT_EQ(parseOne("WEFT_STACK_KB", "1048576").stack_bytes, 1 * GiB);
  EXPECT_EQ(parseOne("WEFT_MAIN_STACK_KB", "0").main_stack_bytes, 0u);
  EXPECT_EQ(parseOne("WEFT_MAIN_STACK_KB", "64").main_stack_bytes, 64 * KiB);
  EXPECT_EQ(parseOne("WEFT_MAIN_STACK_KB", "1048576").main_stack_bytes,
            1 * GiB);
  EXPECT_EQ(parseOne("WEFT_FENCES", "auto").fences, FenceMode::Auto);
  EXPECT_EQ(parseOne("WEFT_FENCES", "symmetric").fences, FenceMode::Symmetric);
  EXPECT_EQ(parseOne("WEFT_FENCES", "asymmetric").fences,
            FenceMode::Asymmetric);
  EXPECT_EQ(parseOne("WEFT_DEBUG_HANG", "86400").debug_hang_seconds, 86400u);
}

struct BadValue {
  const char *Name, *Value, *Expected;
};

class ConfigDeathTest : public testing::TestWithParam<BadValue> {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, WEFT_DEATH_TEST_STYLE); }
};

// Every bad value: its one line, then exit status 2.
TEST_P(ConfigDeathTest, BadValueExits) {
  const BadValue &Bad = GetParam();
  std::string Line = std::string("weft: invalid ") + Bad.Name + "='" +
                     Bad.Value + "': expected " + Bad.Expected + "\n";
  EXPECT_EXIT(parseOne(Bad.Name, Bad.Value), testing::ExitedWithCode(2),
              "^" + literal(Line) + "$");
}

constexpr const char *Workers = "an integer from 1 to 256";
constexpr const char *Flag = "0 or 1";
constexpr const char *StackKB = "a stack size in KiB from 64 to 1048576";
constexpr const char *MainKB = "0, or a stack size in KiB from 64 to 1048576";

INSTANTIATE_TEST_SUITE_P(
    Config, ConfigDeathTest,
    testing::Values(
        BadValue{"WEFT_NWORKERS", "", Workers},
        BadValue{"WEFT_NWORKERS", "0", Workers},
        BadValue{"WEFT_NWORKERS", "257", Workers},
        BadValue{"WEFT_NWORKERS", "-1", Workers},
        BadValue{"WEFT_NWORKERS", "4x", Workers},
        BadValue{"WEFT_NWORKERS", "four", Workers},
        // 2^32 + 1: not taken modulo anything on its way to an unsigned.
        BadValue{"WEFT_NWORKERS", "4294967297", Workers},
        // 2^64: strtoul's overflow.
        BadValue{"WEFT_NWORKERS", "18446744073709551616", Workers},
        BadValue{"CILK_NWORKERS", "0", Workers},
        BadValue{"WEFT_STATS", "2", Flag}, BadValue{"WEFT_STATS", "yes", Flag},
        BadValue{"WEFT_STRESS", "", Flag},
        BadValue{"WEFT_MAX_STACKS", "0", "a stack count from 1 to 1048576"},
        BadValue{"WEFT_MAX_STACKS", "1048577",
                 "a stack count from 1 to 1048576"},
        BadValue{"WEFT_STACK_KB", "63", StackKB},
        BadValue{"WEFT_STACK_KB", "1048577", StackKB},
        BadValue{"WEFT_MAIN_STACK_KB", "1", MainKB},
        BadValue{"WEFT_MAIN_STACK_KB", "63", MainKB},
        BadValue{"WEFT_MAIN_STACK_KB", "1048577", MainKB},
        BadValue{"WEFT_FENCES", "", "auto, symmetric or asymmetric"},
        BadValue{"WEFT_FENCES", "Symmetric", "auto, symmetric or asymmetric"},
        BadValue{"WEFT_DEBUG_HANG", "86401",
                 "0 (off) or a number of seconds from 1 to 86400"}));

// A bad WEFT_NWORKERS is reported even when CILK_NWORKERS is good: the
// program's own variable wins, good or bad.
TEST(ConfigDeath, BadWeftNworkersBesideGoodCilkNworkers) {
  GTEST_FLAG_SET(death_test_style, WEFT_DEATH_TEST_STYLE);
  Environment Env(Vars{{"WEFT_NWORKERS", "0"}, {"CILK_NWORKERS", "4"}});
  EXPECT_EXIT(parse(Env), testing::ExitedWithCode(2),
              literal("weft: invalid WEFT_NWORKERS='0'"));
}

TEST(StackDefaults, DeepStackIsSixteenSerialStacks) {
  EXPECT_EQ(weft::deepStackKB(limit(8 * MiB)), 131072u);
  EXPECT_EQ(weft::deepStackKB(limit(1 * MiB)), 16384u);
  // An unlimited stack counts as the usual 8 MiB.
  EXPECT_EQ(weft::deepStackKB(unlimited()), 131072u);
  // Capped at 1 GiB.
  EXPECT_EQ(weft::deepStackKB(limit(64 * MiB)), 1048576u);
  EXPECT_EQ(weft::deepStackKB(limit(1 * GiB)), 1048576u);
  // Tiny limits scale down, to the KiB.
  EXPECT_EQ(weft::deepStackKB(limit(4 * KiB)), 64u);
  EXPECT_EQ(weft::deepStackKB(limit(1023)), 0u);
  // Only the soft limit counts.
  EXPECT_EQ(weft::deepStackKB({2 * MiB, RLIM_INFINITY}), 32768u);
}

TEST(StackDefaults, MainStackNoneWhenUnlimited) {
  EXPECT_EQ(weft::defaultMainStackKB(unlimited()), 0u);
  EXPECT_EQ(weft::defaultMainStackKB(limit(8 * MiB)), 131072u);
  EXPECT_EQ(weft::defaultMainStackKB(limit(64 * KiB)), 1024u);
}

TEST(StackDefaults, FiberStackWithoutAddressLimit) {
  EXPECT_EQ(weft::defaultStackKB({limit(8 * MiB), unlimited()}, 4, 0),
            131072u);
  EXPECT_EQ(weft::defaultStackKB({unlimited(), unlimited()}, 256, 0),
            131072u);
  // A hard address limit alone does not bind.
  EXPECT_EQ(weft::defaultStackKB({limit(8 * MiB), {RLIM_INFINITY, 1 * GiB}},
                                 4, 0),
            131072u);
}

// Under RLIMIT_AS, half the space holds every stack that may be mapped:
// 16 per worker plus 4 kept free per worker plus 2 (82 for 4 workers).
TEST(StackDefaults, FiberStackUnderAddressLimit) {
  // 64 GiB: 32 GiB / 82 = 409200 KiB, more than the deep stack.
  EXPECT_EQ(weft::defaultStackKB({limit(8 * MiB), limit(64 * GiB)}, 4, 0),
            131072u);
  // 4 GiB: 2 GiB / 82.
  EXPECT_EQ(weft::defaultStackKB({limit(8 * MiB), limit(4 * GiB)}, 4, 0),
            25575u);
  // 512 MiB: 3196 KiB would fit, but not below the serial 8 MiB.
  EXPECT_EQ(weft::defaultStackKB({limit(8 * MiB), limit(512 * MiB)}, 4, 0),
            8192u);
  // Nor above the deep stack of a small stack limit (256 KiB: 4 MiB).
  EXPECT_EQ(weft::defaultStackKB({limit(256 * KiB), limit(512 * MiB)}, 4, 0),
            4096u);
  // WEFT_MAX_STACKS replaces the 16 per worker: 10 + 4 * 2 + 2 = 20.
  EXPECT_EQ(weft::defaultStackKB({limit(8 * MiB), limit(1 * GiB)}, 2, 10),
            26214u);
}

// parseConfig hands the limits, the worker count and WEFT_MAX_STACKS to
// the stack defaults; an explicit size overrides them.
TEST(StackDefaults, ParsedUnderLimits) {
  ResourceLimits Tight = {limit(8 * MiB), limit(1 * GiB)};
  Config C = parse(
      Environment(Vars{{"WEFT_NWORKERS", "2"}, {"WEFT_MAX_STACKS", "10"}}),
      Tight);
  EXPECT_EQ(C.stack_bytes, rlim_t(26214) * KiB);
  EXPECT_EQ(C.main_stack_bytes, 128 * MiB);
  EXPECT_EQ(
      parse(Environment(Vars{{"WEFT_STACK_KB", "100"}}), Tight).stack_bytes,
      100 * KiB);
  Config Unlimited = parse(Environment(Vars{}), {unlimited(), unlimited()});
  EXPECT_EQ(Unlimited.stack_bytes, 128 * MiB);
  EXPECT_EQ(Unlimited.main_stack_bytes, 0u);
}

TEST(StackDefaults, CurrentLimitsAreTheProcesss) {
  ResourceLimits L = weft::currentResourceLimits();
  rlimit Stack, Address;
  ASSERT_EQ(getrlimit(RLIMIT_STACK, &Stack), 0);
  ASSERT_EQ(getrlimit(RLIMIT_AS, &Address), 0);
  EXPECT_EQ(L.Stack.rlim_cur, Stack.rlim_cur);
  EXPECT_EQ(L.Stack.rlim_max, Stack.rlim_max);
  EXPECT_EQ(L.AddressSpace.rlim_cur, Address.rlim_cur);
  EXPECT_EQ(L.AddressSpace.rlim_max, Address.rlim_max);
}

} // namespace
