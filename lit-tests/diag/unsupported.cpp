// Verify that constructs the lowering cannot handle in a spawning function
// get an error at the offending statement (without -g), never a crash or a
// silent miscompile: inline assembly that moves the stack pointer (pushes,
// pops, calls, a clobber or a register variable operand), setjmp and friends,
// vfork, computed goto, musttail calls, variadic spawning functions. The
// front end reports them, so the IR pass, which checks the same, never
// sees them (-verify fails on a second error). The same constructs in a
// function that does not spawn, and harmless inline assembly (popcnt and
// other instructions whose names merely begin with push or pop), compile.
// RUN: %clangxx -fplugin=%plugin -O2 -S -emit-llvm -o /dev/null -Xclang -verify %s
// RUN: %clangxx -fplugin=%plugin -O0 -S -emit-llvm -o /dev/null -Xclang -verify %s
#include <cilk/cilk.h>
#include <csetjmp>
#include <unistd.h>

long f(long);

long with_stack_asm(long n) {
  long x = cilk_spawn f(n);
  // expected-error@+1 {{inline assembly that changes the stack pointer cannot appear in a spawning function}}
  asm volatile("pushq %%rax\n\tpopq %%rax" ::: "memory");
  cilk_sync;
  return x;
}

long with_basic_asm_push(long n) {
  long x = cilk_spawn f(n);
  asm volatile("push %rax"); // expected-error {{inline assembly that changes the stack pointer}}
  cilk_sync;
  return x;
}

long with_prefixed_call(long n, void (*fp)(void)) {
  long x = cilk_spawn f(n);
  // expected-error@+1 {{inline assembly that changes the stack pointer}}
  asm volatile("nop\n1: notrack call *%0" : : "r"(fp) : "rax", "memory");
  cilk_sync;
  return x;
}

long with_sp_clobber(long n) {
  long x = cilk_spawn f(n);
  asm volatile("" ::: "rsp"); // expected-error {{inline assembly that changes the stack pointer}}
  cilk_sync;
  return x;
}

long with_sp_operand(long n) {
  register long sp asm("rsp");
  long x = cilk_spawn f(n);
  asm volatile("" : "=r"(sp)); // expected-error {{inline assembly that changes the stack pointer}}
  cilk_sync;
  return x;
}

std::jmp_buf buf;
long with_setjmp(long n) {
  long x = cilk_spawn f(n);
  if (setjmp(buf)) // expected-error {{setjmp() cannot be called in a spawning function}}
    return 0;
  cilk_sync;
  return x;
}

sigjmp_buf sigbuf;
long with_sigsetjmp(long n) {
  if (sigsetjmp(sigbuf, 1)) // expected-error {{sigsetjmp() cannot be called in a spawning function}}
    return 0;
  long x = cilk_spawn f(n);
  cilk_sync;
  return x;
}

long with_vfork(long n) {
  long x = cilk_spawn f(n);
  if (vfork() == 0) // expected-error {{vfork() cannot be called in a spawning function}}
    _exit(0);
  cilk_sync;
  return x;
}

long with_computed_goto(long n) {
  void *labels[] = {&&a, &&b};
  long x = cilk_spawn f(n);
  goto *labels[n & 1]; // expected-error {{computed goto cannot appear in a spawning function}}
a:
  x += 1;
b:
  cilk_sync;
  return x;
}

long with_musttail(long n) {
  long x = cilk_spawn f(n);
  cilk_sync;
  if (x > 0)
    [[clang::musttail]] return f(x); // expected-error {{musttail calls cannot appear in a spawning function}}
  return x;
}

long variadic(long n, ...) {
  long x = cilk_spawn f(n); // expected-error {{a variadic function cannot spawn}}
  cilk_sync;
  return x;
}

// Each instantiation is checked; the statement gets one error.
template <typename T> T in_template(T n) {
  T x = cilk_spawn f(n);
  asm volatile("popq %%rax" ::: "rax"); // expected-error {{inline assembly that changes the stack pointer}}
  cilk_sync;
  return x;
}
template long in_template<long>(long);
template int in_template<int>(int);

// A lambda is a function of its own: only the one that spawns is rejected.
long lambdas(long n) {
  auto spawns = [](long m) {
    long x = cilk_spawn f(m);
    if (setjmp(buf)) // expected-error {{setjmp() cannot be called in a spawning function}}
      return 0L;
    cilk_sync;
    return x;
  };
  auto plain = [](long m) {
    if (setjmp(buf))
      return 0L;
    return f(m);
  };
  return spawns(n) + plain(n);
}

// No errors below.
long harmless_asm(long n) {
  long x = cilk_spawn f(n);
  asm volatile("" ::: "memory");
  asm volatile("addq $1, %0" : "+r"(x) : : "cc");
  cilk_sync;
  return x;
}

long popcount_asm(long n) {
  long x = cilk_spawn f(n);
  long bits;
  asm("popcnt %1, %0" : "=r"(bits) : "r"(n) : "cc");
  asm("popcntq %1, %0 # pop count, no push" : "=r"(bits) : "r"(bits) : "cc");
  cilk_sync;
  return x + bits;
}

long no_spawn(long n) {
  asm volatile("pushq %%rax\n\tpopq %%rax" ::: "memory");
  if (setjmp(buf))
    return 0;
  void *labels[] = {&&a, &&b};
  goto *labels[n & 1];
a:
  n += 1;
b:
  return f(n);
}

long no_spawn_variadic(long n, ...) {
  return f(n);
}

long spawns_in_lambda_only(long n) {
  if (setjmp(buf))
    return 0;
  auto child = [](long m) {
    long x = cilk_spawn f(m);
    cilk_sync;
    return x;
  };
  return child(n);
}
