// What each side of the pop/steal fence pair costs on this machine
// (runtime/fence.h), for the model in docs/architecture.md, section 2:
//   - a full fence as mfence and as a locked no-op on the stack (x86-64);
//   - a membarrier(PRIVATE_EXPEDITED), to the caller, with 0 .. P-1 other
//     threads of the process running a busy loop;
//   - what one membarrier costs each of those running threads: the time
//     a fixed loop loses, per membarrier received.
// Build and run (no Weft needed):
//   clang++ -O2 -pthread bench/fences/fence_cost.cpp -o fence_cost && ./fence_cost
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

long membarrier(int Command) { return syscall(SYS_membarrier, Command, 0, 0); }

double nsPer(Clock::duration D, long N) {
  return std::chrono::duration<double, std::nano>(D).count() / N;
}

template <typename Body> double timeEach(long N, Body B) {
  auto Start = Clock::now();
  for (long I = 0; I < N; ++I)
    B();
  return nsPer(Clock::now() - Start, N);
}

/// A fixed amount of work that a membarrier's interrupt delays.
void busyWork(long Iterations) {
  volatile unsigned long X = 1;
  for (long I = 0; I < Iterations; ++I)
    X = X * 6364136223846793005ul + 1;
}

/// Runs \p Others busy threads while the caller issues \p Calls membarriers
/// (none if 0). Returns the caller's ns per membarrier and the ns each busy
/// thread takes per round of its fixed work.
std::pair<double, double> withBusyThreads(unsigned Others, long Calls) {
  constexpr long Work = 200'000;
  std::atomic<bool> Stop{false};
  std::atomic<long> Rounds{0};
  std::atomic<long> BusyNs{0};
  std::vector<std::thread> Busy;
  for (unsigned I = 0; I < Others; ++I)
    Busy.emplace_back([&] {
      long MyRounds = 0;
      auto Start = Clock::now();
      while (!Stop.load(std::memory_order_relaxed)) {
        busyWork(Work);
        ++MyRounds;
      }
      BusyNs += std::chrono::duration_cast<std::chrono::nanoseconds>(
                    Clock::now() - Start)
                    .count();
      Rounds += MyRounds;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  double CallerNs = 0;
  if (Calls)
    CallerNs = timeEach(Calls, [] { membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED); });
  else
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Stop = true;
  for (std::thread &T : Busy)
    T.join();
  double PerRound = Rounds ? double(BusyNs) / double(Rounds) : 0;
  return {CallerNs, PerRound};
}

} // namespace

int main() {
  if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0) {
    std::puts("membarrier(PRIVATE_EXPEDITED) is not available here");
    return 1;
  }
  constexpr long Fences = 20'000'000;
#if defined(__x86_64__)
  std::printf("mfence: %.1f ns\n",
              timeEach(Fences, [] { asm volatile("mfence" ::: "memory"); }));
  std::printf("lock orq $0,(%%rsp): %.1f ns\n", timeEach(Fences, [] {
                asm volatile("lock orq $0, (%%rsp)" ::: "memory", "cc");
              }));
#endif
  unsigned Cpus = std::thread::hardware_concurrency();
  constexpr long Calls = 20'000;
  for (unsigned Others = 0; Others < Cpus; ++Others) {
    double Quiet = withBusyThreads(Others, 0).second;
    auto [CallerNs, PerRound] = withBusyThreads(Others, Calls);
    // The busy threads ran for the Calls' duration; each received every
    // membarrier, so the extra time per round, scaled to the rounds in
    // that time, is what each membarrier cost each of them.
    double LostPerMembarrier = 0;
    if (Others && Quiet > 0) {
      double RoundsDuringCalls = CallerNs * Calls / PerRound;
      LostPerMembarrier = (PerRound - Quiet) * RoundsDuringCalls / Calls;
    }
    std::printf("membarrier with %u other running thread%s: %.2f us to the "
                "caller, %.2f us lost by each running thread\n",
                Others, Others == 1 ? "" : "s", CallerNs / 1000,
                LostPerMembarrier / 1000);
  }
}
