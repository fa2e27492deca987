// Verify that what libstdc++ counts atomically on a real run is atomic in
// the race run too: logically parallel children that copy and drop one
// std::shared_ptr update its reference count with no race reported (the
// one-thread run used to make libstdc++ count with plain adds). A write
// to the object both children reach still races with the other's read.
// At -O0 and -O2.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// CHECK: 64 copies, use count 1, value 8
// CHECK: race on {{.*}} between a write and a read
// CHECK-DAG: write of 8 bytes in bump{{.*}}no_race_shared_ptr.cpp:[[@LINE+16]]:
// CHECK-DAG: read of 8 bytes in look{{.*}}no_race_shared_ptr.cpp:[[@LINE+18]]:
// CHECK: races found: 1
#include <cilk/cilk.h>
#include <cstdio>
#include <memory>

__attribute__((noinline)) long hold(std::shared_ptr<long> p, int depth) {
  if (depth == 0)
    return p.use_count() > 1;
  long a = cilk_spawn hold(p, depth - 1);
  long b = hold(p, depth - 1);
  cilk_sync;
  return a + b;
}

__attribute__((noinline)) void bump(std::shared_ptr<long> p) { *p += 1; }

__attribute__((noinline)) long look(const std::shared_ptr<long> &p) {
  return *p;
}

int main() {
  auto shared = std::make_shared<long>(7);
  long copies = hold(shared, 6);
  cilk_spawn bump(shared);
  long seen = look(shared);
  cilk_sync;
  std::printf("%ld copies, use count %ld, value %ld\n", copies,
              shared.use_count(), seen);
  return 0;
}
