// Verify that --weft-race reports a race on the struct member that a child
// and the continuation both write, and none on the members each writes
// alone.
// RUN: %weftcxx --weft-race -O0 -g %s -o %t0
// RUN: %expect-races 1 66 %t0 | FileCheck %s
// RUN: %weftcxx --weft-race -O2 -g %s -o %t2
// RUN: %expect-races 1 66 %t2 | FileCheck %s
// CHECK: weft-race:
#include <cilk/cilk.h>
#include <cstdio>

struct Point {
  int x, y;
  short tag;
};

__attribute__((noinline)) void move(Point *p) {
  p->x = 10;
  p->tag = 1; // CHECK-DAG: write{{.*}}struct_members.cpp:[[@LINE]]:
}

int main() {
  Point p{0, 0, 0};
  cilk_spawn move(&p);
  p.y = 20;
  p.tag = 2; // CHECK-DAG: write{{.*}}struct_members.cpp:[[@LINE]]:
  cilk_sync;
  std::printf("%d %d %d\n", p.x, p.y, p.tag);
  return 0;
}
