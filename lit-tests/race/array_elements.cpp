// Verify that --weft-race tells array elements apart: two children that
// write neighbouring elements of a char array (one byte each, in one
// 8-byte word) do not race; a third that writes one of them does.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// CHECK: weft-race:
#include <cilk/cilk.h>
#include <cstdio>

char bytes[8];

__attribute__((noinline)) void put(int i, char v) { bytes[i] = v; }
__attribute__((noinline)) void put_again(int i, char v) {
  bytes[i] = v; // CHECK-DAG: write{{.*}}array_elements.cpp:[[@LINE]]:
}
__attribute__((noinline)) void put_last(int i, char v) {
  bytes[i] = v; // CHECK-DAG: write{{.*}}array_elements.cpp:[[@LINE]]:
}

int main() {
  for (int i = 0; i < 6; ++i)
    cilk_spawn put(i, char('a' + i));
  cilk_spawn put_again(6, 'g');
  put_last(6, 'h');
  cilk_sync;
  std::printf("%.6s\n", bytes);
  return 0;
}
