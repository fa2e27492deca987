// Verify reducers named in spawned statements nested in spawned statements
// (and in cilk_for bodies, and in templates): the inner statement is given
// the outer one's pointer to the reducer by value, and must keep its
// declaration `T cilk_reducer(I, R) *`, or its uses were refused as
// reaching a reducer through an unannotated pointer. A reducer local of
// each spelling, a parameter declared as a reducer's pointer and one
// declared as a reducer's reference, against the serial elision at P=1, 2,
// 4 with and without steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
#include <cilk/cilk.h>
#include <cilk/opadd_reducer.h>
#include <cstdio>
#include <vector>

static void zero(void *v) { *static_cast<long *>(v) = 0; }
static void plus(void *l, void *r) {
  *static_cast<long *>(l) += *static_cast<long *>(r);
}

// A spawned block holding a parallel loop whose body spawns blocks.
template <typename T> T signed_sums(const std::vector<T> &v) {
  cilk::opadd_reducer<T> pos = 0;
  cilk::opadd_reducer<T> neg = 0;
  long chunks = long(v.size()) / 8;
  cilk_spawn {
    cilk_for (long j = 0; j < chunks; ++j) {
      for (long i = j * 8; i < (j + 1) * 8; ++i) {
        cilk_spawn {
          pos += v[i];
          neg -= v[i] / 2;
        }
      }
    }
  }
  cilk_sync;
  return pos + 3 * neg;
}

// Three levels of spawned blocks around a reducer local.
static long nested(long n) {
  long cilk_reducer(zero, plus) sum = 0;
  for (long i = 0; i < n; ++i)
    cilk_spawn {
      cilk_spawn { cilk_spawn { sum += i; } sum += 2 * i; }
      sum += 1;
    }
  cilk_sync;
  return sum;
}

// The reducer reached through the function's own parameters.
static void through_pointer(long cilk_reducer(zero, plus) *r, long n) {
  for (long i = 0; i < n; ++i)
    cilk_spawn { cilk_spawn { *r += i * i; } }
}
static void through_reference(long cilk_reducer(zero, plus) &r, long n) {
  cilk_for (long i = 0; i < n; ++i)
    cilk_spawn { cilk_spawn { r += i; } r += 1; }
}

int main() {
  std::vector<long> v(4096);
  for (long i = 0; i < 4096; ++i)
    v[i] = i * 7 % 1000;
  std::vector<int> w(800, 3);
  long cilk_reducer(zero, plus) r = 0;
  through_pointer(&r, 300);
  through_reference(r, 300);
  std::printf("%ld %d %ld %ld\n", signed_sums(v), signed_sums(w), nested(500),
              long(r));
}
