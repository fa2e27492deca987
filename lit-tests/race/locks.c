/* Verify that two accesses holding a common lock do not race, as in
 * OpenCilk's detector: parallel children update counters under a pthread
 * mutex, a spin lock, a read-write lock's write side, <cilk/cilksan.h>'s
 * __cilksan_acquire_lock on a lock the detector cannot see, an atomic
 * section and (in C++) std::mutex with std::lock_guard and
 * Cilksan_fake_lock_guard, and none of that is reported. Under two
 * different locks, or with one side unlocked, they still race: two
 * races. In C and C++, at -O0 and -O2.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 2 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 2 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 2 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 2 66 %t2cxx | FileCheck %s
 * CHECK: counts 4 4 4 4 4 4 2 2
 */
#include <cilk/cilk.h>
#include <cilk/cilksan.h>
#include <pthread.h>
#include <stdio.h>
#ifdef __cplusplus
#include <mutex>
#endif

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER, other =
    PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t spin;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int own_lock; /* a lock of the program's own, made of atomics */
static long by_mutex, by_spin, by_rwlock, by_annotation, by_section, by_cxx,
    two_locks, one_unlocked;

__attribute__((noinline)) void add_mutex(void) {
  pthread_mutex_lock(&mutex);
  by_mutex += 1;
  pthread_mutex_unlock(&mutex);
}
__attribute__((noinline)) void add_spin(void) {
  pthread_spin_lock(&spin);
  by_spin += 1;
  pthread_spin_unlock(&spin);
}
__attribute__((noinline)) void add_rwlock(void) {
  pthread_rwlock_wrlock(&rw);
  by_rwlock += 1;
  pthread_rwlock_unlock(&rw);
}
__attribute__((noinline)) void add_annotated(void) {
  while (__atomic_exchange_n(&own_lock, 1, __ATOMIC_ACQUIRE))
    ;
  __cilksan_acquire_lock(&own_lock);
  by_annotation += 1;
  __cilksan_release_lock(&own_lock);
  __atomic_store_n(&own_lock, 0, __ATOMIC_RELEASE);
}
__attribute__((noinline)) void add_section(void) {
  __cilksan_begin_atomic();
  by_section += 1;
  __cilksan_end_atomic();
}
#ifdef __cplusplus
static std::mutex cxx_mutex;
static Cilksan_fake_mutex fake;
__attribute__((noinline)) void add_cxx(void) {
  std::lock_guard<std::mutex> guard(cxx_mutex);
  Cilksan_fake_lock_guard described(&fake);
  by_cxx += 1;
}
#else
__attribute__((noinline)) void add_cxx(void) {
  pthread_mutex_lock(&mutex);
  by_cxx += 1;
  pthread_mutex_unlock(&mutex);
}
#endif

__attribute__((noinline)) void add_under(pthread_mutex_t *m, long *x) {
  pthread_mutex_lock(m);
  *x += 1; // CHECK-DAG: write of 8 bytes in add_under{{.*}}locks.c:[[@LINE]]:
  pthread_mutex_unlock(m);
}
__attribute__((noinline)) void add_bare(long *x) {
  *x += 1; // CHECK-DAG: write of 8 bytes in add_bare{{.*}}locks.c:[[@LINE]]:
}

int main(void) {
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  for (int i = 0; i < 4; ++i) {
    cilk_spawn add_mutex();
    cilk_spawn add_spin();
    cilk_spawn add_rwlock();
    cilk_spawn add_annotated();
    cilk_spawn add_section();
    cilk_spawn add_cxx();
  }
  cilk_sync;
  cilk_spawn add_under(&mutex, &two_locks);
  add_under(&other, &two_locks); /* different locks: a race */
  cilk_sync;
  cilk_spawn add_bare(&one_unlocked);
  add_under(&mutex, &one_unlocked); /* one side unlocked: a race */
  cilk_sync;
  printf("counts %ld %ld %ld %ld %ld %ld %ld %ld\n", by_mutex, by_spin,
         by_rwlock, by_annotation, by_section, by_cxx, two_locks,
         one_unlocked);
  return 0;
}
