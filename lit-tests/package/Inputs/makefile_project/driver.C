// The common driver: knows nothing of the algorithm's header, which the
// Makefile forces in.
#include <cstdio>
#include <vector>

int main() {
  long N = 200000, Buckets = 1000;
  std::vector<unsigned> Keys(N);
  unsigned long Seed = 1;
  for (long I = 0; I < N; I++) {
    Seed = Seed * 6364136223846793005ul + 1442695040888963407ul;
    Keys[I] = (unsigned)(Seed >> 33);
  }
  std::vector<long> Counts = histogram(Keys, Buckets);
  std::printf("total %ld, bucket 0 %ld, bucket 999 %ld, even %ld, "
              "every 7th %ld\n",
              blockedSum(Counts, 0, Buckets), Counts[0], Counts[999],
              parityBuckets(Counts), strideSum(Counts, 7));
  return 0;
}
