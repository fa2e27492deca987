// Verify <cilk/cilksan.h> with OpenCilk's signatures: a program that
// describes its own synchronization to the race detector (a fake mutex
// held around two strands' updates, checking turned off and on, an atomic
// region) compiles and runs unchanged without the plugin, with it, and in
// a race-detector build (-fsanitize=cilk), where checking reports itself
// enabled; in C too.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial | FileCheck --check-prefix=OFF %s
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %t | FileCheck --check-prefix=OFF %s
// OFF: checking 0, total 20
// RUN: %weftcxx -fsanitize=cilk -O1 -g %s -o %t.race
// RUN: %t.race 2>&1 | FileCheck --check-prefix=ON %s
// ON: checking 1, total 20
// RUN: %weftcc -x c -fsyntax-only -Wall -Werror %s
// RUN: %clang -x c -fsyntax-only -Wall -Werror %s
#include <cilk/cilk.h>
#include <cilk/cilksan.h>
#ifdef __cplusplus
#include <cstdio>
#endif

#ifdef __cplusplus
static Cilksan_fake_mutex guard;
static long total;

static void add(long n) {
  Cilksan_fake_lock_guard lock(&guard);
  __atomic_fetch_add(&total, n, __ATOMIC_RELAXED);
}

int main() {
  __cilksan_disable_checking();
  __cilksan_enable_checking();
  __cilksan_begin_atomic();
  __cilksan_end_atomic();
  cilk_for (int i = 0; i < 20; ++i)
    add(1);
  std::printf("checking %d, total %ld\n", (int)__cilksan_is_checking_enabled(),
              __atomic_load_n(&total, __ATOMIC_RELAXED));
  return 0;
}
#else
static Cilksan_fake_mutex guard;
void touch(void) {
  __cilksan_acquire_lock(&guard);
  __cilksan_release_lock(&guard);
  (void)__cilksan_is_checking_enabled();
}
#endif
