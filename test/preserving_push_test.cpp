// Unit test of the preserve_most thunks of the push's rare paths
// (runtime/abi.cpp): the fast path inlined into fast clones calls
// __weft_push_preserving and __weft_after_push_preserving with LLVM's
// preserve_most convention, so a fast clone may hold values in rcx, rdx,
// rsi, rdi and r8 to r10 across them. The test fills those registers with
// sentinels, calls a thunk the way compiled code does, and checks that
// every sentinel (and the argument in rdi) came back.
#include "preserve_most.h"
#include "worker.h"

#include "weft/frame_abi.h"

#include <gtest/gtest.h>

#include <cstdint>

#if defined(__x86_64__)

/// A callee as the C convention allows: it overwrites every register it
/// need not keep, and returns its argument.
extern "C" [[gnu::noinline]] std::int64_t weft_test_clobber_all(void *Arg) {
  asm volatile("mov $-1, %%rcx\n\tmov $-1, %%rdx\n\tmov $-1, %%rsi\n\t"
               "mov $-1, %%r8\n\tmov $-1, %%r9\n\tmov $-1, %%r10\n\t"
               "mov $-1, %%r11\n\t"
               :
               :
               : "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11");
  return reinterpret_cast<std::int64_t>(Arg);
}
WEFT_PRESERVE_MOST_THUNK(weft_test_clobber_preserving, weft_test_clobber_all)

namespace {

/// The registers that preserve_most keeps and the C convention does not,
/// as the thunk left them: rcx, rdx, rsi, rdi, r8, r9, r10.
struct Kept {
  std::uint64_t Regs[7];
};

/// Calls \p Thunk(Arg) with sentinels in the registers preserve_most keeps;
/// returns what it returned and fills \p After with those registers.
template <std::int64_t (*Thunk)(void *)>
std::int64_t callWithSentinels(void *Arg, Kept &After) {
  std::int64_t Result;
  asm volatile(
      // Below the red zone, and 16-byte aligned at the call.
      "mov %%rsp, %%r11\n\t"
      "sub $256, %%rsp\n\t"
      "and $-16, %%rsp\n\t"
      "push %%r11\n\t"
      "sub $8, %%rsp\n\t"
      "mov $0x1111111111111111, %%rcx\n\t"
      "mov $0x2222222222222222, %%rdx\n\t"
      "mov $0x3333333333333333, %%rsi\n\t"
      "mov $0x4444444444444444, %%r8\n\t"
      "mov $0x5555555555555555, %%r9\n\t"
      "mov $0x6666666666666666, %%r10\n\t"
      "mov %[arg], %%rdi\n\t"
      "call *%[thunk]\n\t"
      "mov %%rcx, 0(%[after])\n\t"
      "mov %%rdx, 8(%[after])\n\t"
      "mov %%rsi, 16(%[after])\n\t"
      "mov %%rdi, 24(%[after])\n\t"
      "mov %%r8, 32(%[after])\n\t"
      "mov %%r9, 40(%[after])\n\t"
      "mov %%r10, 48(%[after])\n\t"
      "add $8, %%rsp\n\t"
      "pop %%rsp\n\t"
      : "=&a"(Result)
      : [arg] "b"(Arg), [thunk] "r"(Thunk), [after] "r"(After.Regs)
      : "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0",
        "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
        "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc",
        "memory");
  return Result;
}

void expectSentinels(const Kept &After, void *Arg) {
  EXPECT_EQ(After.Regs[0], 0x1111111111111111u);
  EXPECT_EQ(After.Regs[1], 0x2222222222222222u);
  EXPECT_EQ(After.Regs[2], 0x3333333333333333u);
  EXPECT_EQ(After.Regs[3], reinterpret_cast<std::uint64_t>(Arg));
  EXPECT_EQ(After.Regs[4], 0x4444444444444444u);
  EXPECT_EQ(After.Regs[5], 0x5555555555555555u);
  EXPECT_EQ(After.Regs[6], 0x6666666666666666u);
}

// The thunks' macro around a callee that clobbers all it may: every
// register comes back, and the callee's result.
TEST(PreservingPush, ThunkKeepsWhatTheCalleeClobbers) {
  int Arg = 0;
  Kept After{};
  std::int64_t Result =
      callWithSentinels<weft_test_clobber_preserving>(&Arg, After);
  expectSentinels(After, &Arg);
  EXPECT_EQ(Result, reinterpret_cast<std::int64_t>(&Arg));
}

// The runtime's own thunk, which can be called with nothing pushed (a
// pushed frame would be stolen by the pool's thieves, with no slow clone
// to run); every program's first spawn goes through the push's.
TEST(PreservingPush, AfterPushKeepsTheCallersRegistersAndReturnsTheMark) {
  weft::Worker *W = weft::current_or_new_worker();
  ASSERT_NE(W, nullptr);
  Kept After{};
  std::int64_t Mark =
      callWithSentinels<__weft_after_push_preserving>(W, After);
  expectSentinels(After, W);
  EXPECT_EQ(Mark, W->deque.owner_mark());
}

} // namespace

#endif
