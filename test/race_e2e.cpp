//===- race_e2e.cpp - The race runtime under clang's own instrumentation --===//
//
// Compiled by clang-19 with -fsanitize=thread -fno-sanitize-link-runtime
// and linked with libweft_race.a: the ThreadSanitizer pass emits the
// accesses, and the Weft hooks are called by hand where the race-mode pass
// would call them. Two races (race_e2e.expected): the child's write of
// Racy against the continuation's, and the memcpy's read of A against the
// write after it. The other children, each on its own element, its own
// stack frame, its own heap block or an atomic, race with nothing.
//
//===----------------------------------------------------------------------===//
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
extern "C" {
uint32_t __weft_race_enter(void);
void __weft_race_spawn(uint32_t);
void __weft_race_continue(uint32_t);
void __weft_race_sync(uint32_t);
void __weft_race_exit(uint32_t);
}
// What the pass emits around a spawned statement.
#define SPAWN(F, stmt) do { __weft_race_spawn(F); stmt; __weft_race_continue(F); } while (0)

struct Shape { virtual int area() const { return 1; } virtual ~Shape() {} };
struct Square : Shape { int s = 3; int area() const override { return s * s; } };

__attribute__((noinline)) void bump(int *p) { *p += 1; }
__attribute__((noinline)) int localWork(int n) { int buf[32]; for (int i = 0; i < 32; ++i) buf[i] = i * n; int *q = buf; bump(q + 3); return q[3]; }
__attribute__((noinline)) void fill(std::vector<long> &v, int i) { v[i] = i; }
std::atomic<int> counter;
__attribute__((noinline)) void count() { counter.fetch_add(1); }
__attribute__((noinline)) int heap(int n) { int *p = new int[n]; for (int i = 0; i < n; ++i) p[i] = i; int s = p[n-1]; delete[] p; return s; }
__attribute__((noinline)) int virt(Shape *s) { return s->area(); }

int Racy;
char A[64], B[64];
int main(int argc, char **) {
  int results[4] = {0};
  std::vector<long> v(64);
  uint32_t F = __weft_race_enter();
  SPAWN(F, bump(&Racy));             // races with the next line
  Racy += 2;
  for (int i = 0; i < 4; ++i)         // each child its own element; stack reuse
    SPAWN(F, results[i] = localWork(i));
  for (int i = 0; i < 64; ++i)
    SPAWN(F, fill(v, i));             // distinct elements
  for (int i = 0; i < 4; ++i)
    SPAWN(F, count());                // atomics
  for (int i = 0; i < 4; ++i)
    SPAWN(F, results[i] += heap(100 + argc)); // heap reuse; no race (own element)
  Square sq;
  SPAWN(F, results[0] += virt(&sq));
  __weft_race_sync(F);

  std::memset(A, 1, sizeof A);
  SPAWN(F, std::memcpy(B, A, sizeof A));
  A[10] = 3;                          // races with memcpy's read
  __weft_race_exit(F);
  std::printf("%d %d %ld %d %d\n", Racy, results[0], v[63], counter.load(), B[5]);
  return 0;
}
