// The flat loop on oneTBB's parallel_for over a blocked_range, default
// (auto) partitioner.
#include "../common/bench.h"
#include "cilkfor.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

long long kernel(long n) {
  std::uint64_t *out = cilkfor::slots().data();
  tbb::parallel_for(tbb::blocked_range<long>(0, n),
                    [out](const tbb::blocked_range<long> &r) {
                      for (long i = r.begin(); i != r.end(); ++i)
                        out[i] = cilkfor::work(i);
                    });
  return cilkfor::checksum(n);
}

int main(int argc, char **argv) {
  long n = bench::arg(argc, argv, 1, 1l << 22);
  cilkfor::slots().assign(n, 0);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            bench::threads());
  bench::run(n, kernel);
}
