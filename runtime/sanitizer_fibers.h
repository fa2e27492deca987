//===- sanitizer_fibers.h - Telling the sanitizers about stack switches ---===//
//
// ThreadSanitizer must be told about stack switches, or it attributes the
// new stack's accesses to the old one's history; AddressSanitizer, or it
// takes the new stack's frames for overflows of the old one. The runtime
// is not instrumented itself (but for the ThreadSanitizer build of its unit
// tests), so it finds AddressSanitizer's hooks as weak symbols: present
// when the program is linked with -fsanitize=address, null otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_SANITIZER_FIBERS_H
#define WEFT_RUNTIME_SANITIZER_FIBERS_H

#include <cstddef>

#if defined(__SANITIZE_THREAD__)
#define WEFT_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_TSAN_FIBERS 1
#endif
#endif

extern "C" {
#ifdef WEFT_TSAN_FIBERS
void *__tsan_get_current_fiber();
void *__tsan_create_fiber(unsigned Flags);
void __tsan_destroy_fiber(void *Fiber);
void __tsan_switch_to_fiber(void *Fiber, unsigned Flags);
#endif
void __sanitizer_start_switch_fiber(void **FakeStackSave, const void *Bottom,
                                    std::size_t Size) __attribute__((weak));
void __sanitizer_finish_switch_fiber(void *FakeStackSave,
                                     const void **BottomOld,
                                     std::size_t *SizeOld) __attribute__((weak));
}

#endif // WEFT_RUNTIME_SANITIZER_FIBERS_H
