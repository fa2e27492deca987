// In a spawning function, the address of a thread_local taken after an
// ordinary (not spawned) call to another spawning function, or after the
// following cilk_sync, can be another thread's at -O2: the callee's frame
// may be stolen, the callee parks the fiber stack it runs on, and the fiber
// resumes on a different worker, so the caller continues on another thread;
// LLVM keeps the thread_local's address computed before the call.
//   clang++-19 -I/work/main/include -O2 tls_after_call_to_spawning.cpp && ./a.out
//     -> 10946 bad_after_call=0 bad_after_sync=0 bad_in_caller=0
//   weft-clang++ -O2 ...; WEFT_NWORKERS=4 WEFT_STRESS=1 ./a.out (repeat a few times)
//     -> 10946 bad_after_call=N bad_after_sync=N bad_in_caller=K, N > 0 in every run here
//   (0 at -O0; 0 when the second call is spawned too; site 3 shows the same in
//   a function without spawns that calls a spawning one.)
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
  long r = top(3);
  std::printf("%ld bad_after_call=%ld bad_after_sync=%ld bad_in_caller=%ld\n", r,
              Bad[1].load(), Bad[2].load(), Bad[3].load());
}
