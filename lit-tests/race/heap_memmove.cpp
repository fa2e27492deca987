// Verify that --weft-race reports, in C++, a race on memory from new[]
// between a child's std::memmove into it and the continuation's read of
// an element in the moved range, and a race between a 4-byte store and
// an overlapping 2-byte store of parallel children.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 2 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 2 66 %t2 | FileCheck %s
// CHECK: weft-race:
#include <cilk/cilk.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

volatile std::size_t move_size = 96;

__attribute__((noinline)) void shift(int *buf) {
  std::memmove(buf, buf + 4, move_size); // CHECK-DAG: write{{.*}}heap_memmove.cpp:[[@LINE]]:
}

__attribute__((noinline)) void store32(std::uint32_t *p) {
  *p = 0xffffffffu; // CHECK-DAG: write{{.*}}heap_memmove.cpp:[[@LINE]]:
}

__attribute__((noinline)) void store16(std::uint16_t *p) {
  *p = 7; // CHECK-DAG: write{{.*}}heap_memmove.cpp:[[@LINE]]:
}

int main() {
  int *buf = new int[64]();
  cilk_spawn shift(buf);
  int seen = buf[10]; // CHECK-DAG: read{{.*}}heap_memmove.cpp:[[@LINE]]:
  cilk_sync;
  auto *word = new std::uint32_t(0);
  cilk_spawn store32(word);
  cilk_spawn store16(reinterpret_cast<std::uint16_t *>(word) + 1);
  cilk_sync;
  std::printf("%d %u\n", seen >= 0, *word != 0);
  delete word;
  delete[] buf;
  return 0;
}
