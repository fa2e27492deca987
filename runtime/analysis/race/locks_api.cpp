//===- locks_api.cpp - The locks a program takes, as the detector sees them ===//
//
// Accesses made while two strands hold a common lock do not race
// (locks.h). The race runtime learns of locks from the functions that take
// and release them, which it defines in front of glibc's (a program linked
// with libweft_race.a has them in its executable, which the dynamic linker
// prefers for every module's calls, libstdc++'s std::mutex included):
// pthread mutexes, spin locks and read-write locks, each the lock at its
// own address. A successful take adds the lock to the followed thread's
// set; the release removes it. A program's own threads are not followed.
//
// Locks the detector cannot see (a spin lock made of atomics) are told to
// it with <cilk/cilksan.h>'s __cilksan_acquire_lock(m) and
// __cilksan_release_lock(m) (cilksan_api.cpp), or Cilksan_fake_lock_guard.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"
#include "analysis/race/next_symbol.h"

#include <pthread.h>

using weft::race::detector;
using weft::race::Detector;
using weft::race::nextSymbol;

namespace {

/// After a take that returned \p Result: 0 is success.
int took(const volatile void *Lock, int Result) {
  if (Result == 0 && Detector::follows())
    detector().acquire(reinterpret_cast<std::uintptr_t>(Lock));
  return Result;
}

void released(const volatile void *Lock) {
  if (Detector::follows())
    detector().release(reinterpret_cast<std::uintptr_t>(Lock));
}

} // namespace

#define WEFT_TAKE(Name, Type)                                                  \
  int Name(Type *L) {                                                          \
    using Fn = int(Type *);                                                    \
    static Fn *Real;                                                           \
    return took(L, nextSymbol(Real, #Name)(L));                                      \
  }
#define WEFT_TIMED_TAKE(Name, Type)                                            \
  int Name(Type *L, const struct timespec *At) {                               \
    using Fn = int(Type *, const struct timespec *);                           \
    static Fn *Real;                                                           \
    return took(L, nextSymbol(Real, #Name)(L, At));                                  \
  }
#define WEFT_RELEASE(Name, Type)                                               \
  int Name(Type *L) {                                                          \
    using Fn = int(Type *);                                                    \
    static Fn *Real;                                                           \
    released(L);                                                               \
    return nextSymbol(Real, #Name)(L);                                               \
  }

extern "C" {

WEFT_TAKE(pthread_mutex_lock, pthread_mutex_t)
WEFT_TAKE(pthread_mutex_trylock, pthread_mutex_t)
WEFT_TIMED_TAKE(pthread_mutex_timedlock, pthread_mutex_t)
WEFT_RELEASE(pthread_mutex_unlock, pthread_mutex_t)

WEFT_TAKE(pthread_spin_lock, pthread_spinlock_t)
WEFT_TAKE(pthread_spin_trylock, pthread_spinlock_t)
WEFT_RELEASE(pthread_spin_unlock, pthread_spinlock_t)

WEFT_TAKE(pthread_rwlock_rdlock, pthread_rwlock_t)
WEFT_TAKE(pthread_rwlock_wrlock, pthread_rwlock_t)
WEFT_TAKE(pthread_rwlock_tryrdlock, pthread_rwlock_t)
WEFT_TAKE(pthread_rwlock_trywrlock, pthread_rwlock_t)
WEFT_TIMED_TAKE(pthread_rwlock_timedrdlock, pthread_rwlock_t)
WEFT_TIMED_TAKE(pthread_rwlock_timedwrlock, pthread_rwlock_t)
WEFT_RELEASE(pthread_rwlock_unlock, pthread_rwlock_t)

} // extern "C"
