// Verify spawned calls returning structs: small ones returned in registers
// (stored field by field), large ones returned through sret directly into the
// variable, assignment through a temporary (copied after the child returns,
// never in the continuation), std::string and std::vector initialising new
// variables, and a struct stored into an array element.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <string>
#include <vector>

struct Pair {
  long a, b;
};
struct Big {
  long v[12];
};

static Pair make_pair(long n) { return {n, n * n}; }
static Big make_big(long n) {
  Big b;
  for (int i = 0; i < 12; ++i)
    b.v[i] = n + i;
  return b;
}

long pairs(long n) {
  if (n < 2)
    return n;
  Pair p = cilk_spawn make_pair(n);
  Pair q;
  q = cilk_spawn make_pair(n + 1);
  Big big = cilk_spawn make_big(n);
  Pair arr[2];
  arr[1] = cilk_spawn make_pair(n + 2);
  long rest = cilk_spawn pairs(n - 1);
  cilk_sync;
  return p.a + p.b + q.a + q.b + big.v[11] + arr[1].b + rest;
}

static std::string label(long n) { return "n=" + std::to_string(n); }
static std::vector<long> range(long n) {
  std::vector<long> v;
  for (long i = 0; i < n; ++i)
    v.push_back(i * 3);
  return v;
}

long strings(long n) {
  std::string s = cilk_spawn label(n);
  std::vector<long> v = cilk_spawn range(n);
  cilk_sync;
  long sum = (long)s.size();
  for (long x : v)
    sum += x;
  return sum;
}

int main() {
  for (long n = 0; n < 20; ++n)
    std::printf("%ld %ld %ld\n", n, pairs(n), strings(n));
  return 0;
}
