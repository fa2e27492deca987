// Verify that main runs on the stack WEFT_MAIN_STACK_KB sets, with its
// arguments, environment and exit status intact, and on its own stack when
// that is 0 or when the program links no runtime (the plugin's reference to
// __weft_run_main is weak). The program tells which stack it runs on by
// where its locals are: inside the thread's own stack, or in a mapping of
// /proc/self/maps whose size it prints, against 16 times `ulimit -s`.
// RUN: %weftcc -O2 %s -o %t
// RUN: env WEFT_NWORKERS=2 MAIN_STACK_TEST=env %t a bc | FileCheck --check-prefix=MAPPED %s
// RUN: bash -c '%t a bc d > /dev/null; test $? -eq 46'
// RUN: env WEFT_NWORKERS=2 WEFT_STRESS=1 WEFT_MAIN_STACK_KB=4096 MAIN_STACK_TEST=env %t a bc | FileCheck --check-prefix=MAPPED4 %s
// RUN: env WEFT_MAIN_STACK_KB=0 MAIN_STACK_TEST=env %t a bc | FileCheck --check-prefix=OWN %s
// RUN: %clang -fplugin=%plugin -O2 -c %s -o %t.o -DNO_SPAWNS
// RUN: %clang %t.o -o %t.no-runtime
// RUN: env MAIN_STACK_TEST=env %t.no-runtime a bc | FileCheck --check-prefix=OWN %s
// RUN: not env WEFT_MAIN_STACK_KB=12 %t 2>&1 | FileCheck --check-prefix=BAD %s
//
// MAPPED: argc=3 argv=a,bc env=env
// MAPPED: main runs on a mapped stack of 16 times the stack limit
// MAPPED: fib(24)=46368
// MAPPED4: main runs on a mapped stack of 4096 KiB
// MAPPED4: fib(24)=46368
// OWN: main runs on its own stack
// BAD: weft: invalid WEFT_MAIN_STACK_KB='12': expected 0, or a stack size in KiB from 64 to 1048576
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NO_SPAWNS
#include <cilk/cilk.h>
static long fib(long n) {
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);
  cilk_sync;
  return x + y;
}
#endif

/// How far below the top of the thread's own stack, if at all, \p p lies.
static int on_own_stack(const void *p) {
  pthread_attr_t attr;
  void *bottom;
  size_t size;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &bottom, &size);
  pthread_attr_destroy(&attr);
  return (const char *)p >= (const char *)bottom &&
         (const char *)p < (const char *)bottom + size;
}

/// The size in KiB of the mapping that holds \p p, or 0.
static unsigned long mapping_kib(const void *p) {
  FILE *maps = fopen("/proc/self/maps", "r");
  unsigned long lo, hi, found = 0;
  char line[512];
  while (maps && fgets(line, sizeof line, maps))
    if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)p >= lo &&
        (uintptr_t)p < hi)
      found = (hi - lo) >> 10;
  if (maps)
    fclose(maps);
  return found;
}

int main(int argc, char **argv, char **envp) {
  int local = 0;
  const char *test = "";
  for (char **e = envp; *e; ++e)
    if (!strncmp(*e, "MAIN_STACK_TEST=", 16))
      test = *e + 16;
  printf("argc=%d argv=%s,%s env=%s\n", argc, argc > 1 ? argv[1] : "",
         argc > 2 ? argv[2] : "", test);
  if (on_own_stack(&local)) {
    printf("main runs on its own stack\n");
  } else {
    // The guard page is a mapping of its own, so this is the usable size.
    unsigned long kib = mapping_kib(&local);
    struct rlimit limit;
    getrlimit(RLIMIT_STACK, &limit);
    if (kib == (limit.rlim_cur >> 10) * 16)
      printf("main runs on a mapped stack of 16 times the stack limit\n");
    else
      printf("main runs on a mapped stack of %lu KiB\n", kib);
  }
#ifndef NO_SPAWNS
  printf("fib(24)=%ld\n", fib(24));
#endif
  return argc > 3 ? 42 + argc : 0;
}
