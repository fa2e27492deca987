/*===- cilk/cilksan.h - OpenCilk's race-detector annotations, by Weft -----===*\
 *
 * OpenCilk programs tell its race detector about locks and regions not to
 * check with these calls, and use Cilksan_fake_mutex and
 * Cilksan_fake_lock_guard to describe a synchronization the detector
 * cannot see. The signatures are OpenCilk's.
 *
 * In a normal build they are no-ops, as in OpenCilk. In a race-detector
 * build (`-fsanitize=cilk` or `--weft-race`, which define __cilksan__)
 * __cilksan_disable_checking() and __cilksan_enable_checking() turn the
 * checking of the accesses between them off (they nest), and
 * __cilksan_is_checking_enabled() says whether it is on, and the lock
 * calls, Cilksan_fake_lock_guard and the atomic sections tell it of locks
 * it cannot see: accesses under a common lock do not race (docs/race.md).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_CILKSAN_H
#define WEFT_CILK_CILKSAN_H

#ifdef __cplusplus
#define __WEFT_CILKSAN_NOTHROW noexcept
extern "C" {
#else
#include <stdbool.h>
#define __WEFT_CILKSAN_NOTHROW /* C: inline no-ops throw nothing anyway */
#endif

#ifdef __cilksan__
/* The race detector's (runtime/analysis/race/cilksan_api.cpp). */
void __cilksan_enable_checking(void) __WEFT_CILKSAN_NOTHROW;
void __cilksan_disable_checking(void) __WEFT_CILKSAN_NOTHROW;
bool __cilksan_is_checking_enabled(void) __WEFT_CILKSAN_NOTHROW;
#else
static inline void __cilksan_enable_checking(void) __WEFT_CILKSAN_NOTHROW {}
static inline void __cilksan_disable_checking(void) __WEFT_CILKSAN_NOTHROW {}
static inline bool __cilksan_is_checking_enabled(void) __WEFT_CILKSAN_NOTHROW {
  return false;
}
#endif

#ifdef __cilksan__
void __cilksan_acquire_lock(const void *mutex) __WEFT_CILKSAN_NOTHROW;
void __cilksan_release_lock(const void *mutex) __WEFT_CILKSAN_NOTHROW;
void __cilksan_begin_atomic(void) __WEFT_CILKSAN_NOTHROW;
void __cilksan_end_atomic(void) __WEFT_CILKSAN_NOTHROW;
void __cilksan_register_lock_explicit(const void *mutex) __WEFT_CILKSAN_NOTHROW;
void __cilksan_unregister_lock_explicit(const void *mutex)
    __WEFT_CILKSAN_NOTHROW;
#else
static inline void
__cilksan_acquire_lock(const void *mutex) __WEFT_CILKSAN_NOTHROW {
  (void)mutex;
}
static inline void
__cilksan_release_lock(const void *mutex) __WEFT_CILKSAN_NOTHROW {
  (void)mutex;
}
static inline void __cilksan_begin_atomic(void) __WEFT_CILKSAN_NOTHROW {}
static inline void __cilksan_end_atomic(void) __WEFT_CILKSAN_NOTHROW {}

static inline void
__cilksan_register_lock_explicit(const void *mutex) __WEFT_CILKSAN_NOTHROW {
  (void)mutex;
}
static inline void
__cilksan_unregister_lock_explicit(const void *mutex) __WEFT_CILKSAN_NOTHROW {
  (void)mutex;
}
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

/* A lock that protects nothing, for describing synchronization the
 * detector does not see (a lock-free protocol): register it, then hold it
 * with Cilksan_fake_lock_guard around each side. */
typedef struct Cilksan_fake_mutex {
  int fake_mutex;
#ifdef __cplusplus
  Cilksan_fake_mutex() { __cilksan_register_lock_explicit(this); }
  ~Cilksan_fake_mutex() { __cilksan_unregister_lock_explicit(this); }
#endif
} Cilksan_fake_mutex;

#ifdef __cplusplus
class Cilksan_fake_lock_guard {
public:
  Cilksan_fake_lock_guard() = delete;
  Cilksan_fake_lock_guard(const void *mutex) : mutex_(mutex) {
    __cilksan_acquire_lock(mutex_);
  }
  ~Cilksan_fake_lock_guard() { __cilksan_release_lock(mutex_); }

private:
  const void *mutex_;
};
#endif

#undef __WEFT_CILKSAN_NOTHROW

#endif /* WEFT_CILK_CILKSAN_H */
