// Verify that constructs the lowering cannot handle in a spawning function
// get an error naming the function (at its line; at the statement with -g),
// never a crash or a silent miscompile: inline assembly that moves the
// stack pointer, setjmp, computed goto. The same constructs in a function
// that does not spawn, and harmless inline assembly, compile.
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -fplugin=%plugin -O0 -S -emit-llvm -o /dev/null -Xclang -verify %s
#include <cilk/cilk.h>
#include <csetjmp>

long f(long);

long with_stack_asm(long n) { // expected-error {{inline assembly that changes the stack pointer cannot appear in a spawning function}}
  long x = cilk_spawn f(n);
  asm volatile("pushq %%rax\n\tpopq %%rax" ::: "memory");
  cilk_sync;
  return x;
}

long with_sp_clobber(long n) { // expected-error {{inline assembly that changes the stack pointer}}
  long x = cilk_spawn f(n);
  asm volatile("" ::: "rsp");
  cilk_sync;
  return x;
}

std::jmp_buf buf;
long with_setjmp(long n) { // expected-error {{setjmp() cannot be called in a spawning function}}
  long x = cilk_spawn f(n);
  if (setjmp(buf))
    return 0;
  cilk_sync;
  return x;
}

long with_computed_goto(long n) { // expected-error {{computed goto cannot appear in a spawning function}}
  void *labels[] = {&&a, &&b};
  long x = cilk_spawn f(n);
  goto *labels[n & 1];
a:
  x += 1;
b:
  cilk_sync;
  return x;
}

// No errors below.
long harmless_asm(long n) {
  long x = cilk_spawn f(n);
  asm volatile("" ::: "memory");
  cilk_sync;
  return x;
}

long no_spawn(long n) {
  asm volatile("pushq %%rax\n\tpopq %%rax" ::: "memory");
  if (setjmp(buf))
    return 0;
  return f(n);
}
