// The flat loop as an OpenMP `parallel for` (built with clang's libomp and
// with gcc's libgomp), default (static) schedule.
#include "../common/bench.h"
#include "cilkfor.h"

long long kernel(long n) {
  std::uint64_t *out = cilkfor::slots().data();
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    out[i] = cilkfor::work(i);
  return cilkfor::checksum(n);
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, 1l << 22);
  cilkfor::slots().assign(n, 0);
  bench::run(n, kernel);
}
