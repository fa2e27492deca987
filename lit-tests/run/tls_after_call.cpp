// Verify that a thread_local's address is computed anew after an ordinary
// (not spawned) call to a spawning function, in a spawning function and in a
// plain one: the callee's frame may be stolen and its stack resumed by
// another worker, so the caller continues on another thread. LLVM would
// otherwise keep the address computed before the call (and instruction
// selection the thread pointer read before it). Every check compares the
// address the caller computed with the one a noinline function computes on
// the thread it runs on; the serial elision counts no mismatch.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O2 -fPIC %s -o %t.pic
// RUN: %run-check %t.pic %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <atomic>
#include <cstdio>
thread_local long TlsVar;
static std::atomic<long> Bad[4];
__attribute__((noinline)) static long *addr_var() { return &TlsVar; }
__attribute__((noinline)) static void check(int site, long *p) { Bad[site] += (p != addr_var()); }
long fib(long n) {
  TlsVar += 1;  // computes &TlsVar before the spawn and the call
  if (n < 2)
    return n;
  long x = cilk_spawn fib(n - 1);
  long y = fib(n - 2);  // an ordinary call to a spawning function
  check(1, &TlsVar);
  cilk_sync;
  check(2, &TlsVar);
  return x + y;
}
// A function without spawns that calls a spawning function.
__attribute__((noinline)) long middle(long n) {
  TlsVar += 1;
  long r = fib(n);
  check(3, &TlsVar);
  return r;
}
long top(long n) {
  if (n < 2)
    return middle(n + 18);
  long a = cilk_spawn top(n - 1);
  long b = top(n - 2);
  cilk_sync;
  return a + b;
}
int main() {
  long r = 0;
  for (int round = 0; round < 4; ++round)
    r += top(3);
  std::printf("%ld bad_after_call=%ld bad_after_sync=%ld bad_in_caller=%ld\n", r,
              Bad[1].load(), Bad[2].load(), Bad[3].load());
}
