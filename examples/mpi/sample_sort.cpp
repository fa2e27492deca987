// sample_sort: a distributed sort, one MPI process per node and Weft inside
// each. Every rank generates its share of N pseudo-random 64-bit keys, sorts
// it with the parallel merge sort of parallel_sort.h, and the ranks then
// exchange keys by sample sort: regular samples of every sorted share give
// P - 1 splitters, each rank sends each other rank the keys between two
// splitters (MPI_Alltoallv), and merges the sorted runs it receives. At the
// end the keys are globally sorted: rank r's keys are all at most rank
// r + 1's.
//
// The program checks its own result (each share sorted, the shares in order
// across ranks, N keys in all, the same multiset of keys as generated) and
// prints one line that depends only on N and the sorted order, so that any
// number of ranks and workers, and the serial elision, print the same line.
// The time of the sort goes to stderr.
//
// MPI is initialised with MPI_THREAD_FUNNELED: only the thread that called
// MPI_Init_thread calls MPI. That holds because every MPI call is made in a
// function that does not spawn (a caller of spawning code gets its own
// thread back); the spawning code is all in parallel_sort.h.
//
//   mpirun -np 2 ./sample_sort 4194304       (docs/scaling-out.md)
#include "parallel_sort.h"
#include <weft/api.h>

#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using psort::Key;

/// Regular samples per rank: enough that no rank receives much more than
/// N / P keys, few enough that sorting P times this many is negligible.
constexpr int kSamplesPerRank = 128;
/// MPI counts are ints, and regular sampling can send a rank up to about
/// twice its share: shares stay below 2^30 keys.
constexpr std::uint64_t kMostKeysPerRank = 1ull << 30;

/// splitmix64's finaliser: the keys, and the hash in the checksums.
Key mix(Key x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct World {
  int rank = 0;
  int size = 1;
};

/// The keys with global indexes [first, first + n): key i depends only on
/// i, so the input is the same however many ranks share it.
std::vector<Key> generate(std::uint64_t first, std::uint64_t n) {
  std::vector<Key> keys(n);
  for (std::uint64_t i = 0; i < n; ++i)
    keys[i] = mix(first + i);
  return keys;
}

/// The sum of every key's hash: equal before and after the sort when the
/// sort kept the multiset of keys (modulo 2^64, which MPI_SUM also wraps).
std::uint64_t multisetSum(const std::vector<Key> &keys) {
  std::uint64_t sum = 0;
  for (Key k : keys)
    sum += mix(k);
  return sum;
}

std::uint64_t globalSum(std::uint64_t local) {
  std::uint64_t sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

/// P - 1 splitters from kSamplesPerRank regular samples of every rank's
/// sorted share (parallel sorting by regular sampling).
std::vector<Key> chooseSplitters(const std::vector<Key> &sorted,
                                 const World &w) {
  std::vector<Key> samples(kSamplesPerRank);
  for (int i = 0; i < kSamplesPerRank; ++i)
    samples[i] = sorted[(i + 1) * sorted.size() / (kSamplesPerRank + 1)];
  std::vector<Key> all(static_cast<std::size_t>(kSamplesPerRank) * w.size);
  MPI_Allgather(samples.data(), kSamplesPerRank, MPI_UINT64_T, all.data(),
                kSamplesPerRank, MPI_UINT64_T, MPI_COMM_WORLD);
  std::sort(all.begin(), all.end());
  std::vector<Key> splitters;
  for (int r = 1; r < w.size; ++r)
    splitters.push_back(all[static_cast<std::size_t>(r) * kSamplesPerRank]);
  return splitters;
}

/// Displacements from counts, the form MPI_Alltoallv takes.
std::vector<int> displacements(const std::vector<int> &counts) {
  std::vector<int> displs(counts.size() + 1, 0);
  for (std::size_t i = 0; i < counts.size(); ++i)
    displs[i + 1] = displs[i] + counts[i];
  return displs;
}

/// Sends rank r the keys of the sorted share between splitters r - 1 and r
/// and returns what every rank sent here: sorted runs, one per rank, which
/// \p runOffsets delimits.
std::vector<Key> exchange(const std::vector<Key> &sorted,
                          const std::vector<Key> &splitters, const World &w,
                          std::vector<std::size_t> &runOffsets) {
  std::vector<int> sendCounts(w.size);
  std::size_t begin = 0;
  for (int r = 0; r < w.size; ++r) {
    std::size_t end =
        r + 1 < w.size
            ? std::upper_bound(sorted.begin(), sorted.end(), splitters[r]) -
                  sorted.begin()
            : sorted.size();
    sendCounts[r] = static_cast<int>(end - begin);
    begin = end;
  }
  std::vector<int> recvCounts(w.size);
  MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT,
               MPI_COMM_WORLD);
  std::vector<int> sendDispls = displacements(sendCounts);
  std::vector<int> recvDispls = displacements(recvCounts);
  std::vector<Key> received(recvDispls.back());
  MPI_Alltoallv(sorted.data(), sendCounts.data(), sendDispls.data(),
                MPI_UINT64_T, received.data(), recvCounts.data(),
                recvDispls.data(), MPI_UINT64_T, MPI_COMM_WORLD);
  runOffsets.assign(recvDispls.begin(), recvDispls.end());
  return received;
}

/// Seconds this rank spent in each phase of the sort.
struct Phases {
  double localSort = 0, exchange = 0, merge = 0;
};

/// Sorts the keys spread over the ranks: afterwards each rank's keys are
/// sorted and no key on a rank exceeds any key on the next. This function
/// calls MPI and does not spawn; the spawning happens in psort's functions,
/// and each returns on the thread that called it.
std::vector<Key> sampleSort(std::vector<Key> keys, const World &w,
                            Phases &phases) {
  double start = MPI_Wtime();
  std::vector<Key> tmp(keys.size());
  psort::sort(keys.data(), tmp.data(), keys.size());
  double sorted = MPI_Wtime();
  phases.localSort = sorted - start;
  if (w.size == 1)
    return keys;
  std::vector<Key> splitters = chooseSplitters(keys, w);
  std::vector<std::size_t> runOffsets;
  std::vector<Key> received = exchange(keys, splitters, w, runOffsets);
  double exchanged = MPI_Wtime();
  phases.exchange = exchanged - sorted;
  tmp.resize(received.size());
  psort::mergeRuns(received.data(), tmp.data(), runOffsets.data(), 0, w.size);
  phases.merge = MPI_Wtime() - exchanged;
  return received;
}

/// On rank 0, each phase's longest time over the ranks (the exchange's
/// includes waiting for the slowest local sort).
Phases slowestPhases(const Phases &mine) {
  double in[3] = {mine.localSort, mine.exchange, mine.merge}, out[3] = {};
  MPI_Reduce(in, out, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return Phases{out[0], out[1], out[2]};
}

/// What rank 0 needs to check the order across ranks.
struct ShareSummary {
  std::uint64_t count, low, high, sorted;
};

/// An empty string when the keys are globally sorted, else what is wrong.
const char *checkOrder(const std::vector<Key> &keys, const World &w) {
  ShareSummary mine{keys.size(), keys.empty() ? 0 : keys.front(),
                    keys.empty() ? 0 : keys.back(),
                    std::is_sorted(keys.begin(), keys.end()) ? 1u : 0u};
  std::vector<ShareSummary> all(w.size);
  MPI_Gather(&mine, 4, MPI_UINT64_T, all.data(), 4, MPI_UINT64_T, 0,
             MPI_COMM_WORLD);
  if (w.rank != 0)
    return "";
  bool seen = false;
  Key previousHigh = 0;
  for (const ShareSummary &s : all) {
    if (!s.sorted)
      return "a rank's keys are not sorted";
    if (s.count == 0)
      continue;
    if (seen && s.low < previousHigh)
      return "a rank's keys are below the previous rank's";
    seen = true;
    previousHigh = s.high;
  }
  return "";
}

/// A checksum of the sorted sequence as a whole, key by global position:
/// the same for any split of the sequence over ranks.
std::uint64_t orderChecksum(const std::vector<Key> &keys, const World &w) {
  std::uint64_t mine = keys.size(), first = 0;
  MPI_Exscan(&mine, &first, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (w.rank == 0)
    first = 0; // MPI_Exscan leaves rank 0's result undefined
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)
    sum += mix(keys[i] ^ mix(first + i));
  return globalSum(sum);
}

/// MPI_THREAD_FUNNELED allows MPI calls from this thread only; the check
/// shows that the calls into the spawning sort gave it back.
bool onMainThread() {
  int flag = 0;
  MPI_Is_thread_main(&flag);
  return flag != 0;
}

int run(std::uint64_t n, const World &w) {
  std::uint64_t first = n * w.rank / w.size;
  std::uint64_t last = n * (w.rank + 1) / w.size;
  std::vector<Key> keys = generate(first, last - first);
  std::uint64_t before = globalSum(multisetSum(keys));

  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  Phases phases;
  std::vector<Key> sorted = sampleSort(std::move(keys), w, phases);
  MPI_Barrier(MPI_COMM_WORLD);
  double seconds = MPI_Wtime() - start;
  Phases slowest = slowestPhases(phases);

  const char *error = checkOrder(sorted, w);
  std::uint64_t count = globalSum(sorted.size());
  std::uint64_t after = globalSum(multisetSum(sorted));
  std::uint64_t checksum = orderChecksum(sorted, w);
  int mainThread = onMainThread(), allMainThread = 0;
  MPI_Reduce(&mainThread, &allMainThread, 1, MPI_INT, MPI_LAND, 0,
             MPI_COMM_WORLD);
  if (w.rank != 0)
    return 0;
  if (!*error && count != n)
    error = "keys were lost or duplicated";
  if (!*error && after != before)
    error = "the keys are not the ones generated";
  if (!*error && !allMainThread)
    error = "MPI was called from another thread than the main one";
  if (*error) {
    std::printf("sample sort: FAILED: %s\n", error);
    return 1;
  }
  std::printf("sample sort: %" PRIu64 " keys sorted, checksum %016" PRIx64
              "\n",
              n, checksum);
  std::fprintf(stderr,
               "sample sort: %.4f s (ranks %d, workers per rank %u; slowest "
               "local sort %.4f s, exchange %.4f s, merge %.4f s)\n",
               seconds, w.size, weft_get_nworkers(), slowest.localSort,
               slowest.exchange, slowest.merge);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1u << 22;
  int status = 1;
  if (provided < MPI_THREAD_FUNNELED) {
    if (w.rank == 0)
      std::printf("sample sort: MPI does not provide MPI_THREAD_FUNNELED\n");
  } else if (n < static_cast<std::uint64_t>(w.size) * kSamplesPerRank) {
    if (w.rank == 0)
      std::printf("sample sort: needs at least %d keys per rank\n",
                  kSamplesPerRank);
  } else if (n / w.size >= kMostKeysPerRank) {
    if (w.rank == 0)
      std::printf("sample sort: at most 2^30 keys per rank\n");
  } else {
    status = run(n, w);
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
