// Verify that --weft-race reports nothing on atomic operations from
// logically parallel strands (std::atomic read-modify-writes, loads and
// stores, and the __atomic builtins on a plain integer), and that the
// atomics still compute the right result.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 0 0 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 0 0 %t2 | FileCheck %s
// CHECK: count=1000 max=999 plain=1000 flag=1
// CHECK: races found: 0
#include <cilk/cilk.h>

#include <atomic>
#include <cstdio>

std::atomic<long> count{0};
std::atomic<int> max_seen{0};
std::atomic<bool> flag{false};
long plain = 0;

int main() {
  cilk_for (int i = 0; i < 1000; ++i) {
    count.fetch_add(1, std::memory_order_relaxed);
    int seen = max_seen.load();
    while (seen < i && !max_seen.compare_exchange_weak(seen, i)) {
    }
    __atomic_fetch_add(&plain, 1, __ATOMIC_SEQ_CST);
    flag.store(true, std::memory_order_release);
  }
  std::printf("count=%ld max=%d plain=%ld flag=%d\n", count.load(),
              max_seen.load(), __atomic_load_n(&plain, __ATOMIC_SEQ_CST),
              flag.load() ? 1 : 0);
  return 0;
}
