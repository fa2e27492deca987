/* Verify that the masked loads and stores the loop vectorizer makes of a
 * conditional loop at -O2 -mavx2 (llvm.masked.store, llvm.masked.load) are
 * checked lane by lane: a spawned loop that copies the positive elements
 * races with a read of one it copies, and a spawned loop that sums the
 * flagged elements with a write of one it sums; the elements the
 * condition leaves out, whose lanes are off in the masks, race with
 * nothing: two races. At -O0 the loops stay scalar and the result is the
 * same. In C and C++, at -O0 and -O2.
 * REQUIRES: avx2
 * RUN: %weftcc --weft-race -mavx2 -O0 -g %s -o %t0
 * RUN: %expect-races 2 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -mavx2 -O2 -g %s -o %t2
 * RUN: %expect-races 2 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -mavx2 -O0 -g %s -o %t0cxx
 * RUN: %expect-races 2 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -mavx2 -O2 -g %s -o %t2cxx
 * RUN: %expect-races 2 66 %t2cxx | FileCheck %s
 * CHECK: copied 9 0 total 1024 after 693 500 800
 */
#include <cilk/cilk.h>
#include <stdio.h>

enum { N = 64 };
int src[N], dst[N], values[N], flags[N];

__attribute__((noinline)) void copy_positive(int *to, const int *from, int n) {
  for (int i = 0; i < n; ++i)
    if (from[i] > 0)
      to[i] = from[i]; // CHECK-DAG: write of 4 bytes in copy_positive{{.*}}vector_masked_loops.c:[[@LINE]]:
}

__attribute__((noinline)) int sum_flagged(const int *v, const int *flag,
                                          int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    if (flag[i])
      s += v[i]; // CHECK-DAG: read of 4 bytes in sum_flagged{{.*}}vector_masked_loops.c:[[@LINE]]:
  return s;
}

int main(void) {
  for (int i = 0; i < N; ++i) {
    src[i] = i % 3 == 0 ? i : -i; // positive at 3, 6, 9, ...
    values[i] = i;
    flags[i] = i % 2; // the odd ones
  }

  cilk_spawn copy_positive(dst, src, N);
  int copied = dst[9]; // CHECK-DAG: read of 4 bytes in main{{.*}}vector_masked_loops.c:[[@LINE]]:
  int skipped = dst[20];
  cilk_sync;

  int total = cilk_spawn sum_flagged(values, flags, N);
  values[5] = 500; // CHECK-DAG: write of 4 bytes in main{{.*}}vector_masked_loops.c:[[@LINE]]:
  values[8] = 800;
  cilk_sync;

  int after = 0;
  for (int i = 0; i < N; ++i)
    after += dst[i];
  printf("copied %d %d total %d after %d %d %d\n", copied, skipped, total,
         after, values[5], values[8]);
  return 0;
}
